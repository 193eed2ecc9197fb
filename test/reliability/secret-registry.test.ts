/**
 * The process-wide secret registry (src/secrets.ts): whatever it lets through, the leak scanner of
 * test/helpers/output-collector.ts finds nothing — whole, URL-encoded, JSON-escaped, any 12-character
 * fragment — and the printers built on it (logger, report-error, redacting streams, values) apply it.
 */
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { reportError } from '../../src/cli/report-error.js';
import { ApiError } from '../../src/model/errors.js';
import { createLogger } from '../../src/log.js';
import { redactSecrets as redactJournalFields } from '../../src/safety/redact.js';
import {
  REDACTED,
  clearSecretsForTests,
  redactCredentials,
  redactText,
  redactValue,
  redactingStream,
  registerSecret,
  registeredSecretCount,
  registeredSecrets,
} from '../../src/secrets.js';
import { findLeaks } from '../helpers/output-collector.js';

const TOKEN = 'gb_api_9d2f41c8/a7e3+b605e1==Zq';

beforeEach(() => clearSecretsForTests());

describe('redactText', () => {
  it('redacts a registered value whole, URL-encoded, JSON-escaped, and any 12+ character fragment of it', () => {
    registerSecret(`  ${TOKEN}\n`); // as read from a file: surrounding whitespace is not part of it
    const texts = [
      `Authorization: Bearer ${TOKEN}`,
      `GET /x?token=${encodeURIComponent(TOKEN)}`,
      JSON.stringify({ msg: `echo ${TOKEN}` }),
      `starts with ${TOKEN.slice(0, 12)}…`,
      `ends with …${TOKEN.slice(-13)}`,
      `middle ${TOKEN.slice(5, 19)} and again ${TOKEN.slice(9, 30)}`,
    ];
    for (const text of texts) {
      const out = redactText(text);
      expect(out, text).toContain(REDACTED);
      expect(findLeaks(out, [TOKEN], 'text'), text).toEqual([]);
    }
    expect(redactText(`keeps the rest: ${TOKEN}!`)).toBe(`keeps the rest: ${REDACTED}!`);
  });

  it('leaves shorter runs, unrelated text and an empty registry alone', () => {
    expect(redactText(`x ${TOKEN}`)).toBe(`x ${TOKEN}`);
    registerSecret(TOKEN);
    expect(redactText(`prefix ${TOKEN.slice(0, 11)} only`)).toBe(`prefix ${TOKEN.slice(0, 11)} only`);
    expect(redactText('nothing secret here')).toBe('nothing secret here');
  });

  it('ignores values too short to be secrets; redacts mid-length ones only whole', () => {
    registerSecret('short');
    registerSecret('');
    registerSecret(undefined);
    expect(registeredSecretCount()).toBe(0);
    registerSecret('mid-len-secret'); // 14 characters: no fragments
    expect(redactText('a mid-len-secret b')).toBe(`a ${REDACTED} b`);
    expect(redactText('a mid-len-secre b')).toBe('a mid-len-secre b');
  });

  it('a value too long to be a token (a file passed as --token-file by mistake) is redacted whole, not by fragments', () => {
    const file = Array.from({ length: 300 }, (_, i) => `line ${i}: some manifest text`).join('\n');
    registerSecret(file);
    expect(redactText(`quoted: ${file}`)).toBe(`quoted: ${REDACTED}`);
    expect(redactText('line 7: some manifest text')).toBe('line 7: some manifest text');
  });

  it('property: the scanner finds nothing in redacted text, however the secret is cut and embedded', () => {
    const secretArb = fc.stringMatching(/^[A-Za-z0-9_\-./+=]{16,40}$/);
    fc.assert(
      fc.property(
        secretArb,
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.string({ maxLength: 20 }), fc.boolean()), { maxLength: 6 }),
        (secret, pieces) => {
          clearSecretsForTests();
          registerSecret(secret);
          const text = pieces
            .map(([a, b, filler, encode]) => {
              const start = a % secret.length;
              const piece = secret.slice(start, start + 1 + (b % (secret.length - start)));
              return filler + (encode ? encodeURIComponent(piece) : piece);
            })
            .join('');
          const out = redactText(text + secret);
          expect(findLeaks(out, [secret], 'x')).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('long secrets and payload secrets', () => {
  /** A PEM-shaped value of ~1,700 characters: searched through the gram index, not gram by gram. */
  const PEM = `-----BEGIN CERTIFICATE-----\n${Array.from({ length: 20 }, (_, i) => `MIIC${String(i).padStart(2, '0')}zCCAZugAwIBAgIJAKx9${'Qk7pW3'.repeat(8)}`.slice(0, 64)).join('\n')}\n-----END CERTIFICATE-----`;

  it('property: fragments of long secrets (129..1,000 characters) are found however they are cut and embedded', () => {
    const secretArb = fc.stringMatching(/^[A-Za-z0-9_\-./+=\n]{129,1000}$/);
    fc.assert(
      fc.property(
        secretArb,
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.string({ maxLength: 20 }), fc.boolean()), { maxLength: 6 }),
        (secret, pieces) => {
          clearSecretsForTests();
          registerSecret(secret, 'payload');
          // Pieces of 12..19 characters: the shortest runs that count, the ones a sparse search would miss.
          const text = pieces
            .map(([a, b, filler, encode]) => {
              const start = a % (secret.length - 20);
              const piece = secret.slice(start, start + 12 + (b % 8));
              return filler + (encode ? encodeURIComponent(piece) : piece);
            })
            .join('');
          const out = redactText(text + secret);
          expect(findLeaks(out, [secret.trim()], 'x')).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a payload secret is redacted from messages, kept by redactCredentials, and never refused as a credential', () => {
    registerSecret(TOKEN);
    registerSecret(PEM, 'payload');
    const line = `400: invalid certificate ${PEM.slice(40, 120)} (token ${TOKEN})`;
    expect(findLeaks(redactText(line), [PEM, TOKEN], 'text')).toEqual([]);
    expect(redactCredentials(line)).toBe(`400: invalid certificate ${PEM.slice(40, 120)} (token ${REDACTED})`);
    expect(redactValue({ cert: PEM, t: TOKEN }, 'credentials')).toEqual({ cert: PEM, t: REDACTED });
    expect(redactValue({ cert: PEM })).toEqual({ cert: REDACTED });
    expect(registeredSecrets()).toEqual([TOKEN]);
    // Registered again as a credential, it is one.
    registerSecret(PEM);
    expect(redactCredentials(PEM)).toBe(REDACTED);
    expect(registeredSecrets()).toContain(PEM);
  });

  it('a value read with CRLF line endings is redacted in its LF form too', () => {
    registerSecret(PEM.replace(/\n/g, '\r\n'), 'payload');
    expect(redactText(`sent: ${PEM}`)).toBe(`sent: ${REDACTED}`);
  });
});

describe('printers on the registry', () => {
  it('the logger redacts every line: messages, fields, error stacks and cause chains, JSON and pretty', () => {
    registerSecret(TOKEN);
    for (const format of ['json', 'pretty'] as const) {
      let out = '';
      const log = createLogger({
        level: 'debug',
        format,
        stream: { write: (c: string) => void (out += c) },
        env: { NO_COLOR: '1' },
      });
      const cause = new Error(`inner: server said ${TOKEN.slice(2, 20)}`);
      const err = new ApiError('GET', '/orgs', 401, `bad token ${encodeURIComponent(TOKEN)}`, {
        cause: new Error(`middle ${TOKEN}`, { cause }),
      });
      log.error({ err, url: `https://h/?t=${TOKEN}`, nested: { deep: [TOKEN] } }, `failed with ${TOKEN}`);
      expect(out).toContain('inner: server said'); // the cause chain is logged …
      expect(out).toContain('at '); // … with stacks
      expect(findLeaks(out, [TOKEN], format)).toEqual([]);
    }
  });

  it('reportError prints messages without registered secrets', () => {
    registerSecret(TOKEN);
    let stderr = '';
    reportError(new Error(`request with ${TOKEN} failed`), {
      stdout: { write: () => true },
      stderr: { write: (c: string) => void (stderr += c) },
      env: {},
    });
    expect(stderr).toBe(`Error: request with ${REDACTED} failed\n`);
  });

  it('redacting streams and values; values without secrets are returned as they are', () => {
    registerSecret(TOKEN);
    const chunks: string[] = [];
    const stream = redactingStream({ write: (c: string) => void chunks.push(c), isTTY: true });
    stream.write(`one ${TOKEN}\n`);
    expect(chunks).toEqual([`one ${REDACTED}\n`]);
    expect(stream.isTTY).toBe(true);
    const clean = { a: ['x', { b: 1 }] };
    expect(redactValue(clean)).toBe(clean);
    expect(redactValue({ [TOKEN]: [`v ${TOKEN}`, 2], k: null })).toEqual({ [REDACTED]: [`v ${REDACTED}`, 2], k: null });
  });

  it('journal fields lose registered secrets too, not only secret-named fields', () => {
    registerSecret(TOKEN);
    expect(redactJournalFields({ title: `Team ${TOKEN}`, token: 'x' })).toEqual({ title: `Team ${REDACTED}` });
  });
});
