import { describe, expect, it } from 'vitest';
import { REDACTED, createLogger, fitWidth, redactSecrets } from '../../src/log.js';
import { stripAnsi } from '../../src/render/ansi.js';

function sink(isTTY = false) {
  const chunks: string[] = [];
  return { chunks, stream: { write: (c: string) => void chunks.push(c), isTTY }, text: () => chunks.join('') };
}

describe('createLogger', () => {
  it('writes JSON lines by default (not a TTY) and redacts token-ish fields', () => {
    const s = sink();
    const log = createLogger({ stream: s.stream, env: {} });
    log.info(
      {
        token: 't0ken',
        headers: { authorization: 'Bearer abc' },
        site: { shareKey: 'sk', title: 'Docs' },
        urls: { published: 'https://x/?k=1' },
        config: { secret: 's' },
      },
      'hello',
    );
    const line = JSON.parse(s.chunks[0]!) as Record<string, unknown>;
    expect(line.msg).toBe('hello');
    expect(line.token).toBe(REDACTED);
    expect(line.headers).toEqual({ authorization: REDACTED });
    expect(line.site).toEqual({ shareKey: REDACTED, title: 'Docs' });
    expect(line.urls).toEqual({ published: REDACTED });
    expect(line.config).toEqual({ secret: REDACTED });
    expect(s.text()).not.toMatch(/t0ken|Bearer abc|k=1/);
  });

  it('honours the level', () => {
    const s = sink();
    const log = createLogger({ stream: s.stream, env: {}, level: 'warn' });
    log.info('quiet');
    log.warn('loud');
    expect(s.chunks).toHaveLength(1);
    expect(s.text()).toContain('loud');
  });

  it('is pretty (and synchronous) on a TTY or when asked, still redacting', () => {
    for (const opts of [{ stream: sink(true) }, { stream: sink(false), format: 'pretty' as const }]) {
      const log = createLogger({
        stream: opts.stream.stream,
        env: { NO_COLOR: '1' },
        ...('format' in opts ? { format: opts.format } : {}),
      });
      log.info({ token: 'abcd1234' }, 'hello pretty');
      const out = opts.stream.text();
      expect(out).toContain('INFO');
      expect(out).toContain('hello pretty');
      expect(out).not.toContain('abcd1234');
      expect(() => JSON.parse(out)).toThrow();
    }
  });

  it('JSON even on a TTY when asked', () => {
    const s = sink(true);
    createLogger({ stream: s.stream, env: {}, format: 'json' }).info('x');
    expect(JSON.parse(s.chunks[0]!)).toMatchObject({ msg: 'x' });
  });
});

describe('pretty lines for people', () => {
  const step = {
    step: 'Members/org-demo/frank@acme.test#update',
    kind: 'Members',
    org: 'org-demo',
    key: 'frank@acme.test',
    action: 'update',
    change: '~ Members org-demo/frank@acme.test  role: "read" → "comment"',
  };

  it('a step says what it changed after its message; JSON keeps the fields for machines', () => {
    const pretty = sink(false);
    createLogger({ stream: pretty.stream, env: { NO_COLOR: '1' }, format: 'pretty' }).info(
      { ...step, durationMs: 3 },
      'applied',
    );
    expect(pretty.text()).toContain('applied ~ Members org-demo/frank@acme.test  role: "read" → "comment"');
    expect(pretty.text()).not.toContain('"step"');
    expect(pretty.text()).toContain('"durationMs":3');
    const json = sink(false);
    createLogger({ stream: json.stream, env: {}, format: 'json' }).info({ ...step, durationMs: 3 }, 'applied');
    expect(JSON.parse(json.text())).toMatchObject({ msg: 'applied', ...step });
  });

  it('on a terminal a line fits its width, colours kept and reset', () => {
    for (const env of [{ NO_COLOR: '1' }, { FORCE_COLOR: '1' }]) {
      const s = { ...sink(true), columns: 0 };
      const stream = { write: s.stream.write, isTTY: true, columns: 60 };
      createLogger({ stream, env }).info({ ...step, note: 'x'.repeat(200) }, 'applied');
      const line = s.text();
      expect(line.endsWith('\n')).toBe(true);
      expect([...stripAnsi(line.slice(0, -1))]).toHaveLength(60);
      expect(stripAnsi(line)).toMatch(/…\n$/);
      // eslint-disable-next-line no-control-regex
      if (env.FORCE_COLOR) expect(line).toMatch(/\u001b\[0m\n$/);
    }
  });

  it('cuts nothing that fits, nor without a width', () => {
    expect(fitWidth('short\n', 60)).toBe('short\n');
    expect(fitWidth('x'.repeat(100), undefined)).toBe('x'.repeat(100));
    expect(fitWidth('é'.repeat(10) + '\n', 10)).toBe('é'.repeat(10) + '\n');
    expect(fitWidth('é'.repeat(11) + '\n', 10)).toBe('é'.repeat(9) + '…\n');
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence of known secret values', () => {
    expect(redactSecrets('GET /x?t=sekret-1 failed: sekret-1', ['sekret-1', undefined])).toBe(
      `GET /x?t=${REDACTED} failed: ${REDACTED}`,
    );
  });
  it('ignores values too short to be secrets', () => {
    expect(redactSecrets('a b c', ['a', ''])).toBe('a b c');
  });
});
