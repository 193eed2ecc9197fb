/** The CLI's links to the rest of docops, in one place: manifest loading, kinds, API client, sandbox. */
export { loadManifests } from '../manifests/index.js';
export { KINDS } from '../kinds/index.js';
export { startSandbox } from '../sandbox/index.js';
export { sandboxCommand } from '../sandbox/cli.js';
export { createClient } from '../api/client.js';
export { resolveApiSettings } from '../api/settings.js';
