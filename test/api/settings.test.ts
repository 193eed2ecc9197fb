import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_URL, resolveApiSettings } from '../../src/api/settings.js';
import { UsageError } from '../../src/model/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'docops-settings-'));
const tokenFile = join(dir, 'token');
writeFileSync(tokenFile, '  file-token-123\n');

describe('resolveApiSettings', () => {
  it('defaults to the official API and no token', () => {
    expect(resolveApiSettings({ env: {} })).toEqual({ baseUrl: DEFAULT_API_URL, token: undefined });
    expect(DEFAULT_API_URL).toBe('https://api.gitbook.com/v1');
  });

  it('prefers --api-url over DOCOPS_API_URL and strips a trailing slash', () => {
    const env = { DOCOPS_API_URL: 'http://127.0.0.1:9999/v1' };
    expect(resolveApiSettings({ env }).baseUrl).toBe('http://127.0.0.1:9999/v1');
    expect(resolveApiSettings({ apiUrl: 'https://example.test/v1/', env }).baseUrl).toBe('https://example.test/v1');
  });

  it('reads DOCOPS_TOKEN, or the trimmed token file (which wins when given)', () => {
    expect(resolveApiSettings({ env: { DOCOPS_TOKEN: 'env-token' } }).token).toBe('env-token');
    expect(resolveApiSettings({ tokenFile, env: { DOCOPS_TOKEN: 'env-token' } }).token).toBe('file-token-123');
    expect(resolveApiSettings({ env: { DOCOPS_TOKEN: '' } }).token).toBeUndefined();
  });

  it('a missing or empty token file is a UsageError that names the file, not a token', () => {
    const missing = join(dir, 'nope');
    expect(() => resolveApiSettings({ tokenFile: missing, env: { DOCOPS_TOKEN: 'env-token' } })).toThrow(UsageError);
    expect(() => resolveApiSettings({ tokenFile: missing, env: {} })).toThrow(
      /cannot read token file .*nope \(ENOENT\)/,
    );
    const empty = join(dir, 'empty');
    writeFileSync(empty, '\n');
    expect(() => resolveApiSettings({ tokenFile: empty, env: {} })).toThrow(/is empty/);
  });

  it('rejects URLs that are not http(s), carry credentials or a query', () => {
    expect(() => resolveApiSettings({ apiUrl: 'not a url', env: {} })).toThrow(UsageError);
    expect(() => resolveApiSettings({ apiUrl: 'ftp://x.test/v1', env: {} })).toThrow(/http or https/);
    let message = '';
    try {
      resolveApiSettings({ apiUrl: 'https://me:s3cret-pw@x.test/v1', env: {} });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/must not contain credentials/);
    expect(message).not.toContain('s3cret-pw');
    expect(() => resolveApiSettings({ apiUrl: 'https://x.test/v1?token=abc', env: {} })).toThrow(/query/);
  });
});
