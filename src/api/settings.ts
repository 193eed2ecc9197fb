/**
 * Where the API is and how to authenticate, from command-line flags and the environment.
 * Precedence: --api-url, then DOCOPS_API_URL, then the official default; --token-file (an explicit flag
 * wins over the ambient environment), then DOCOPS_TOKEN. The token value never appears in a message: every
 * token read here is registered with the process-wide secret registry (src/secrets.ts) the moment it is read,
 * so no printer shows it afterwards, however it gets quoted (a manifest symlinked to the token file, an API
 * error that echoes the Authorization header …).
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../model/errors.js';
import { registerSecret, shownUrl } from '../secrets.js';

export const DEFAULT_API_URL = 'https://api.gitbook.com/v1';

export interface ApiSettingsInput {
  apiUrl?: string | undefined;
  tokenFile?: string | undefined;
  env: Record<string, string | undefined>;
}

export interface ApiSettings {
  baseUrl: string;
  token: string | undefined;
}

export function resolveApiSettings(input: ApiSettingsInput): ApiSettings {
  registerSecret(input.env.DOCOPS_TOKEN);
  const token = resolveToken(input);
  registerSecret(token);
  return { baseUrl: resolveBaseUrl(input), token };
}

/**
 * Register every token this run could use — DOCOPS_TOKEN and the token file's content — before anything else is
 * read or printed (a manifest or a config error could quote it). A token file that cannot be read is skipped
 * here; the command that needs it reports that.
 */
export function registerCredentialSecrets(input: {
  tokenFile?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
}): void {
  registerSecret(input.env.DOCOPS_TOKEN);
  if (nonEmpty(input.tokenFile) === undefined) return;
  try {
    registerSecret(readFileSync(input.tokenFile as string, 'utf8'));
  } catch {
    // reported by resolveApiSettings when the command connects
  }
}

function resolveBaseUrl({ apiUrl, env }: ApiSettingsInput): string {
  const raw = nonEmpty(apiUrl) ?? nonEmpty(env.DOCOPS_API_URL) ?? DEFAULT_API_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Shown without its credentials, or not at all when no scheme says where they are (secrets.ts, shownUrl).
    throw new UsageError(`API URL is not a valid URL: ${shownUrl(raw) ?? '(not shown: it may hold credentials)'}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`API URL must use http or https: ${url.origin}`);
  }
  if (url.username !== '' || url.password !== '') {
    // Credentials in the URL would end up in logs; the token belongs in --token-file or DOCOPS_TOKEN.
    throw new UsageError('API URL must not contain credentials; use --token-file or DOCOPS_TOKEN');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError(`API URL must not have a query or fragment: ${url.origin}${url.pathname}`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function resolveToken({ tokenFile, env }: ApiSettingsInput): string | undefined {
  if (nonEmpty(tokenFile) !== undefined) {
    let contents: string;
    try {
      contents = readFileSync(tokenFile as string, 'utf8');
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new UsageError(`cannot read token file ${tokenFile}${typeof code === 'string' ? ` (${code})` : ''}`);
    }
    const token = contents.trim();
    if (token === '') throw new UsageError(`token file ${tokenFile} is empty`);
    return token;
  }
  return nonEmpty(env.DOCOPS_TOKEN?.trim());
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
