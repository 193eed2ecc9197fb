/**
 * The CLI's links to the rest of docops that other helpers are still writing: manifest loading, the kinds
 * registry, the API client/settings and the sandbox. TEMPORARY: loaded with non-literal dynamic imports and
 * typed here against the agreed signatures, so the CLI compiles before those modules land; replaced by static
 * imports once they exist.
 */
import type { ApiClient } from '../api/types.js';
import type { KindDefinition } from '../core/kind.js';
import type { DesiredState } from '../core/reconcile.js';
import type { ManifestDocument } from '../manifests/document.js';
import type { CliIO } from './io.js';

interface ManifestsModule {
  loadManifests(dir: string, kinds: readonly KindDefinition[], options: { env: Readonly<Record<string, string | undefined>> }): Promise<{
    documents: ManifestDocument[];
    desired: DesiredState;
  }>;
}
interface KindsModule {
  KINDS: readonly KindDefinition[];
}
interface ClientModule {
  createClient(options: { baseUrl: string; token: string; concurrency?: number; [k: string]: unknown }): ApiClient;
}
interface SettingsModule {
  resolveApiSettings(options: { apiUrl?: string; tokenFile?: string; env: Readonly<Record<string, string | undefined>> }): { baseUrl: string; token: string } | Promise<{ baseUrl: string; token: string }>;
}
export interface SandboxHandle {
  url: string;
  token: string;
  close(): Promise<void>;
}
interface SandboxModule {
  startSandbox(options?: { port?: number; host?: string; token?: string; stateFile?: string; seed?: 'demo' | 'empty' }): Promise<SandboxHandle>;
}
interface SandboxCliModule {
  sandboxCommand(argv: string[], io: CliIO): Promise<number>;
}

const load = <T>(specifier: string): Promise<T> => import(specifier) as Promise<T>;

export const loadManifests: ManifestsModule['loadManifests'] = async (dir, kinds, options) =>
  (await load<ManifestsModule>('../manifests/index.js')).loadManifests(dir, kinds, options);

export const loadKinds = async (): Promise<readonly KindDefinition[]> => (await load<KindsModule>('../kinds/index.js')).KINDS;

export const createClient = async (options: Parameters<ClientModule['createClient']>[0]): Promise<ApiClient> =>
  (await load<ClientModule>('../api/client.js')).createClient(options);

export const resolveApiSettings = async (options: Parameters<SettingsModule['resolveApiSettings']>[0]): Promise<{ baseUrl: string; token: string }> =>
  (await load<SettingsModule>('../api/settings.js')).resolveApiSettings(options);

export const startSandbox: SandboxModule['startSandbox'] = async (options) => (await load<SandboxModule>('../sandbox/index.js')).startSandbox(options);

export const sandboxCommand: SandboxCliModule['sandboxCommand'] = async (argv, io) =>
  (await load<SandboxCliModule>('../sandbox/cli.js')).sandboxCommand(argv, io);
