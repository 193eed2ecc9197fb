/**
 * TEMPORARY links to the API client and settings modules, which are written in parallel: loaded with
 * non-literal dynamic imports and typed against the agreed signatures so the daemon compiles before they
 * land. Replace with static imports once src/api/client.ts and src/api/settings.ts exist.
 */
import type { ApiClient } from '../api/types.js';
import type { Env } from '../manifests/interpolate.js';

/** What the client reports after every HTTP response (status 0: no response). */
export interface ResponseInfo {
  method: string;
  route: string;
  status: number;
  durationMs: number;
  attempt: number;
}

interface ClientModule {
  createClient(options: { baseUrl: string; token: string; concurrency?: number; onResponse?: (info: ResponseInfo) => void; [k: string]: unknown }): ApiClient;
}
interface SettingsModule {
  resolveApiSettings(options: { apiUrl?: string; tokenFile?: string; env: Env }): { baseUrl: string; token: string } | Promise<{ baseUrl: string; token: string }>;
}

const load = <T>(specifier: string): Promise<T> => import(specifier) as Promise<T>;

export const createApiClient = async (options: Parameters<ClientModule['createClient']>[0]): Promise<ApiClient> =>
  (await load<ClientModule>('../api/client.js')).createClient(options);

export const resolveSettings = async (options: Parameters<SettingsModule['resolveApiSettings']>[0]): Promise<{ baseUrl: string; token: string }> =>
  (await load<SettingsModule>('../api/settings.js')).resolveApiSettings(options);
