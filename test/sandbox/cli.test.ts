import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sandboxCommand } from '../../packages/sandbox/src/cli.js';

function capture(): { stream: PassThrough; text: () => string; waitFor: (re: RegExp) => Promise<RegExpMatchArray> } {
  const stream = new PassThrough();
  let text = '';
  const waiters: (() => void)[] = [];
  stream.on('data', (c: Buffer) => {
    text += c.toString();
    for (const w of waiters.splice(0)) w();
  });
  const waitFor = async (re: RegExp): Promise<RegExpMatchArray> => {
    for (;;) {
      const m = re.exec(text);
      if (m) return m;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { stream, text: () => text, waitFor };
}

describe('docops sandbox (CLI)', () => {
  it('serves until SIGTERM, printing the base URL and token, then resolves 0', async () => {
    const out = capture();
    const err = capture();
    const done = sandboxCommand(['--port', '0', '--token', 'cli-token', '--seed', 'empty', '--faults', 'latency=1ms'], {
      stdout: out.stream,
      stderr: err.stream,
    });
    const [, url] = await out.waitFor(/base URL: (http:\/\/127\.0\.0\.1:\d+\/v1)/);
    expect(out.text()).toContain('token:    cli-token');
    const res = await fetch(`${url}/orgs/org-demo/members`, { headers: { authorization: 'Bearer cli-token' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { count: number }).count).toBe(1);
    process.emit('SIGTERM', 'SIGTERM');
    expect(await done).toBe(0);
    expect(process.listenerCount('SIGTERM')).toBe(0);
    await expect(fetch(`${url}/orgs`)).rejects.toThrow();
    expect(err.text()).toBe('');
  });

  it('--rate-limit puts a token bucket in front of the API', async () => {
    const out = capture();
    const err = capture();
    const done = sandboxCommand(['--port', '0', '--seed', 'empty', '--rate-limit', '1/min'], {
      stdout: out.stream,
      stderr: err.stream,
    });
    const [, url] = await out.waitFor(/base URL: (http:\/\/127\.0\.0\.1:\d+\/v1)/);
    expect(out.text()).toContain('rate limit: 1/min per token');
    const get = () => fetch(`${url}/orgs/org-demo/members`, { headers: { authorization: 'Bearer sandbox-token' } });
    const first = await get();
    expect([first.status, first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')]).toEqual([
      200,
      '1',
      '0',
    ]);
    const second = await get();
    expect([second.status, second.headers.get('retry-after')]).toEqual([429, '60']);
    process.emit('SIGTERM', 'SIGTERM');
    expect(await done).toBe(0);
    expect(err.text()).toBe('');
  });

  it.each([
    [['--seed', 'full'], /--seed must be demo, empty or large\[:MEMBERS\]/],
    [['--port', 'x'], /--port must be an integer/],
    [['--faults', '429=7'], /invalid fault spec/],
    [['--bogus'], /Unknown option/],
    [['--rate-limit', 'lots'], /invalid rate limit "lots"/],
    [['--rate-limit', '5/s', '--faults', 'rateLimit=6/s'], /either with --rate-limit or as rateLimit= in --faults/],
  ])('rejects %j with exit code 1', async (argv, message) => {
    const out = capture();
    const err = capture();
    expect(await sandboxCommand(argv, { stdout: out.stream, stderr: err.stream })).toBe(1);
    expect(err.text()).toMatch(message);
    expect(err.text()).toContain('Usage: docops sandbox');
  });

  it.each([['demo'], ['empty'], ['large:50']])(
    '--seed %s prints the two variables that point docops at it, and they work',
    async (seed) => {
      const out = capture();
      const done = sandboxCommand(['--port', '0', '--seed', seed, '--token', 'tok-' + seed.replace(':', '')], {
        stdout: out.stream,
        stderr: capture().stream,
      });
      const [, url] = await out.waitFor(/export DOCOPS_API_URL=(\S+)\n/);
      const [, token] = await out.waitFor(/export DOCOPS_TOKEN=(\S+)\n/);
      const [, listed] = await out.waitFor(/organizations: (.+)\n/);
      const res = await fetch(`${url}/orgs`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const ids = ((await res.json()) as { items: { id: string }[] }).items.map((o) => o.id);
      expect(listed!.split(', ')).toEqual(ids);
      expect(ids).toContain(seed.startsWith('large') ? 'org-bench' : 'org-demo');
      process.emit('SIGTERM', 'SIGTERM');
      expect(await done).toBe(0);
    },
  );

  it('--help prints usage and exits 0', async () => {
    const out = capture();
    expect(await sandboxCommand(['--help'], { stdout: out.stream, stderr: capture().stream })).toBe(0);
    expect(out.text()).toContain('--faults SPEC');
    expect(out.text()).toContain('--rate-limit L/W');
  });
});
