/**
 * The API client a command talks to: an in-process sandbox (--sandbox / --sandbox-state) or the real API with a
 * token from --token-file or DOCOPS_TOKEN. Cleanup (client, sandbox) is registered on the command context.
 * The client (undici) is imported when a command connects, the sandbox only when it is asked for: `validate`
 * and `plan` without --sandbox load neither the sandbox nor, for validate, the client.
 */
import type { RetryNotice } from '../api/client.js';
import type { PacerWait } from '../api/pacer.js';
import type { ApiClient } from '../model/api-client.js';
import { UsageError } from '../model/errors.js';
import type { CommandContext } from './command.js';
import { resolveApiSettings } from '../api/settings.js';
import { DEFAULT_LIST_LAG_MS, Expectations, expecting } from '../api/expectations.js';
import { configFromFlag } from './config-file.js';

/** Fail fast, before any manifest is read, when there is no way to authenticate. */
export function requireCredentials(ctx: CommandContext): void {
  const { global, io } = ctx;
  if (!global.sandbox && global.tokenFile === undefined && !io.env.DOCOPS_TOKEN) {
    throw new UsageError(
      'no API token: set DOCOPS_TOKEN, pass --token-file FILE, or add --sandbox to try docops against a local sandbox',
    );
  }
}

/**
 * Retries shown on stderr as they happen (`retrying 2/6 in 1.2 s: ECONNREFUSED`), so a command waiting on an
 * unreachable API says so at once. Requests in flight fail together: each attempt number and reason is shown once.
 */
export function retryNotices(logger: CommandContext['logger']): (n: RetryNotice) => void {
  const shown = new Set<string>();
  return (n) => {
    const line = `retrying ${n.attempt}/${n.maxAttempts} in ${(n.delayMs / 1000).toFixed(1)} s: ${n.reason}`;
    const key = `${n.attempt}/${n.maxAttempts}: ${n.reason}`;
    if (shown.has(key)) return;
    shown.add(key);
    logger.warn({ method: n.method, path: n.path }, line);
  };
}

/** `waiting 42.0 s for the API's rate limit (0 of 60 left until 10:42:07)` on stderr, once per wait. */
export function rateLimitNotices(logger: CommandContext['logger']): (w: PacerWait) => void {
  return (w) => {
    const b = w.budget;
    const until = b?.resetAt !== undefined ? ` until ${new Date(b.resetAt).toISOString().slice(11, 19)} UTC` : '';
    const why = w.refused
      ? 'the API answered 429 (another client may share the token)'
      : b
        ? `${Math.max(0, b.remaining)} of ${b.limit} left${until}`
        : 'no budget left';
    logger.warn(`waiting ${(w.waitMs / 1000).toFixed(1)} s for the API's rate limit (${why})`);
  };
}

export async function connect(ctx: CommandContext): Promise<ApiClient> {
  const { global, io, logger } = ctx;
  requireCredentials(ctx);
  let settings: { baseUrl: string; token: string | undefined };
  if (global.sandbox) {
    if (global.tokenFile !== undefined)
      logger.warn('--token-file is ignored with --sandbox (the sandbox has its own token)');
    const { startSandbox } = await import('@docops/sandbox');
    const sandbox = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      seed: 'demo',
      ...(global.sandboxState !== undefined ? { stateFile: global.sandboxState } : {}),
    });
    ctx.onCleanup(() => sandbox.close());
    logger.info({ url: sandbox.url, stateFile: global.sandboxState }, 'started in-process sandbox');
    settings = { baseUrl: sandbox.url, token: sandbox.token };
  } else {
    settings = resolveApiSettings({
      ...(global.apiUrl !== undefined ? { apiUrl: global.apiUrl } : {}),
      ...(global.tokenFile !== undefined ? { tokenFile: global.tokenFile } : {}),
      env: io.env,
    });
  }
  if (!settings.token) throw new UsageError('the API token is empty: check --token-file or DOCOPS_TOKEN');
  ctx.addSecret(settings.token);
  const { createClient } = await import('../api/client.js');
  const client = createClient({
    baseUrl: settings.baseUrl,
    token: settings.token,
    concurrency: global.concurrency,
    logger,
    onRetry: retryNotices(logger),
    onRateLimitWait: rateLimitNotices(logger),
  });
  ctx.onCleanup(() => client.close());
  logger.debug({ baseUrl: client.baseUrl, concurrency: global.concurrency }, 'API client ready');
  return remembering(ctx, client);
}

/**
 * The client with docops's own writes remembered while lists may not show them (docs/reliability.md, "Lists that
 * answer late"): within the command (a create looked up after its answer was lost waits for a list newer than it).
 * Nothing is kept between commands: a plan made moments after an apply reads what the lists show then.
 */
async function remembering(ctx: CommandContext, client: ApiClient): Promise<ApiClient> {
  const config = await configFromFlag(ctx);
  return expecting(client, new Expectations(config?.listLagMs ?? DEFAULT_LIST_LAG_MS, Date.now, client.baseUrl));
}
