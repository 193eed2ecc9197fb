/**
 * The CLI's links to the rest of docops that every manifest-reading command needs: manifest loading and the
 * kinds. The API client (undici) and the sandbox are imported by connect.ts when a command connects, the
 * sandbox only with --sandbox (docs/benchmarks.md, "Start-up").
 */
export { loadManifests } from '../manifests/index.js';
export { KINDS } from '../kinds/index.js';
export { resolveApiSettings } from '../api/settings.js';
