/**
 * The daemon's API connection: an in-process sandbox (--sandbox, demo seed) or the configured API with the
 * token from tokenFile / DOCOPS_TOKEN. Every response is reported to `onResponse` (→ metrics).
 */
import type { ApiClient } from '../api/types.js';
import type { Logger } from '../log.js';
import type { Env } from '../manifests/interpolate.js';
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import type { DaemonConfig } from './config.js';
import { createApiClient, resolveSettings, type ResponseInfo } from './links.js';

export interface Connection {
  client: ApiClient;
  /** Values to keep out of logs (the token). */
  secrets: string[];
  sandbox?: RunningSandbox;
  close(): Promise<void>;
}

export type ClientFactory = (options: { baseUrl: string; token: string; concurrency: number; onResponse: (info: ResponseInfo) => void; logger: Logger }) => Promise<ApiClient>;

export async function connectApi(
  config: DaemonConfig,
  env: Env,
  logger: Logger,
  onResponse: (info: ResponseInfo) => void,
  createClient: ClientFactory = createApiClient,
): Promise<Connection> {
  let sandbox: RunningSandbox | undefined;
  let settings: { baseUrl: string; token: string };
  if (config.sandbox) {
    sandbox = await startSandbox({ seed: 'demo', host: '127.0.0.1', port: 0 });
    settings = { baseUrl: sandbox.url, token: sandbox.token };
    logger.info({ url: sandbox.url }, 'started in-process sandbox (demo seed)');
  } else {
    settings = await resolveSettings({
      ...(config.apiUrl !== undefined ? { apiUrl: config.apiUrl } : {}),
      ...(config.tokenFile !== undefined ? { tokenFile: config.tokenFile } : {}),
      env,
    });
  }
  const client = await createClient({ baseUrl: settings.baseUrl, token: settings.token, concurrency: config.concurrency, onResponse, logger });
  return {
    client,
    secrets: [settings.token],
    ...(sandbox ? { sandbox } : {}),
    async close() {
      await client.close();
      await sandbox?.close();
    },
  };
}
