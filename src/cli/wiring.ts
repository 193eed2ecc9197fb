/**
 * The CLI's links to the rest of docops that every manifest-reading command needs: manifest loading and the
 * kinds. Not the API settings: connect.ts imports those itself, so a command that connects without reading
 * manifests (whoami, orgs) loads no kind and no YAML parser. The API client (undici) and the sandbox are
 * imported by connect.ts when a command connects, the sandbox only with --sandbox (docs/dev/benchmarks.md,
 * "Start-up"). The loader is imported from its module, not from manifests/index.ts, whose parse.ts would load
 * the `yaml` package for every command that reads manifests.
 */
export { loadManifests } from '../manifests/load.js';
export { KINDS } from '../kinds/index.js';
