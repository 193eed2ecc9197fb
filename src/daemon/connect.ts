/**
 * The daemon's API connection: an in-process sandbox (--sandbox, demo seed) or the configured API with the
 * token from tokenFile / DOCOPS_TOKEN. Every response is reported to `onResponse` (→ metrics). The token is
 * registered with the process-wide secret registry (src/secrets.ts) before anything else uses it, so no log
 * line, HTTP answer or journal of the daemon can show it.
 */
import { createClient as createApiClient, type ResponseInfo } from '../api/client.js';
import { resolveApiSettings } from '../api/settings.js';
import { DEFAULT_LIST_LAG_MS } from '../api/expectations.js';
import { expectingClient } from '../api/expectations-file.js';
import type { ApiClient } from '../model/api-client.js';
import { UsageError } from '../model/errors.js';
import type { Logger } from '../log.js';
import type { Env } from '../manifests/interpolate.js';
import { registerSecret } from '../secrets.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import type { DocopsConfig } from '../config/config.js';

export type { ResponseInfo };

export interface Connection {
  client: ApiClient;
  /** Values to keep out of logs (the token). */
  secrets: string[];
  sandbox?: RunningSandbox;
  /** Keep what docops wrote that the lists may not show yet in the journal directory (src/api/expectations-file.ts). */
  remember?(): Promise<void>;
  close(): Promise<void>;
}

export type SettingsResolver = (options: {
  apiUrl?: string;
  tokenFile?: string;
  env: Env;
}) => Promise<{ baseUrl: string; token: string | undefined }>;

export type ClientFactory = (options: {
  baseUrl: string;
  token: string;
  concurrency: number;
  onResponse: (info: ResponseInfo) => void;
  logger: Logger;
}) => Promise<ApiClient>;

const defaultFactory: ClientFactory = async (o) => createApiClient(o);
const defaultSettings: SettingsResolver = async (o) => resolveApiSettings({ ...o, env: { ...o.env } });

export async function connectApi(
  config: DocopsConfig,
  env: Env,
  logger: Logger,
  onResponse: (info: ResponseInfo) => void,
  factories: { createClient?: ClientFactory | undefined; resolveSettings?: SettingsResolver | undefined } = {},
): Promise<Connection> {
  registerSecret(env.DOCOPS_TOKEN);
  let sandbox: RunningSandbox | undefined;
  let settings: { baseUrl: string; token: string | undefined };
  if (config.sandbox) {
    sandbox = await startSandbox({ seed: 'demo', host: '127.0.0.1', port: 0 });
    settings = { baseUrl: sandbox.url, token: sandbox.token };
    logger.info({ url: sandbox.url }, 'started in-process sandbox (demo seed)');
  } else {
    settings = await (factories.resolveSettings ?? defaultSettings)({
      ...(config.apiUrl !== undefined ? { apiUrl: config.apiUrl } : {}),
      ...(config.tokenFile !== undefined ? { tokenFile: config.tokenFile } : {}),
      env,
    });
  }
  const token = settings.token;
  registerSecret(token);
  if (token === undefined || token === '') {
    throw new UsageError(
      'no API token: set tokenFile in the config or DOCOPS_TOKEN, or pass --sandbox to try docops against a local sandbox',
    );
  }
  const raw = await (factories.createClient ?? defaultFactory)({
    baseUrl: settings.baseUrl,
    token,
    concurrency: config.concurrency,
    onResponse,
    logger: logger.child({ component: 'api' }),
  });
  // docops's own writes are remembered while lists may not show them; kept beside the journal (not for the
  // in-process sandbox, which starts afresh).
  const kept = await expectingClient(
    raw,
    config.listLagMs ?? DEFAULT_LIST_LAG_MS,
    config.sandbox ? undefined : config.journalDir,
  );
  return {
    client: kept.client,
    secrets: [token],
    ...(sandbox ? { sandbox } : {}),
    remember: () => kept.save(),
    async close() {
      await kept.client.close();
      await sandbox?.close();
    },
  };
}
