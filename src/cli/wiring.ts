/**
 * The CLI's links to the rest of docops that other helpers are still writing: manifest loading, the kinds
 * registry, the API client/settings and the sandbox. Modules not there yet are TEMPORARILY loaded with non-literal dynamic imports and
 * typed here against the agreed signatures, so the CLI compiles before those modules land; replaced by static
 * imports once they exist.
 */
import type { ApiClient } from '../api/types.js';

export { loadManifests } from '../manifests/index.js';
export { KINDS } from '../kinds/index.js';
export { startSandbox } from '../sandbox/index.js';
export { sandboxCommand } from '../sandbox/cli.js';

interface ClientModule {
  createClient(options: { baseUrl: string; token: string; concurrency?: number; [k: string]: unknown }): ApiClient;
}
interface SettingsModule {
  resolveApiSettings(options: { apiUrl?: string; tokenFile?: string; env: Readonly<Record<string, string | undefined>> }): { baseUrl: string; token: string } | Promise<{ baseUrl: string; token: string }>;
}

const load = <T>(specifier: string): Promise<T> => import(specifier) as Promise<T>;

export const createClient = async (options: Parameters<ClientModule['createClient']>[0]): Promise<ApiClient> =>
  (await load<ClientModule>('../api/client.js')).createClient(options);

export const resolveApiSettings = async (options: Parameters<SettingsModule['resolveApiSettings']>[0]): Promise<{ baseUrl: string; token: string }> =>
  (await load<SettingsModule>('../api/settings.js')).resolveApiSettings(options);
