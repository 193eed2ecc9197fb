/**
 * `docops apply` on a terminal asks before writing: only "yes" applies; anything else writes nothing and exits 1;
 * --yes skips the question; without a terminal (no `ask`) and with a saved plan nothing is asked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';

let sb: RunningSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

async function apply(
  args: string[],
  answer: string | undefined,
): Promise<{ code: number; stdout: string; stderr: string; asked: string[]; writes: number }> {
  sb ??= await startSandbox({ host: '127.0.0.1', port: 0 });
  const before = sb.stats();
  const asked: string[] = [];
  let stdout = '';
  let stderr = '';
  const code = await main(
    ['apply', '-m', 'config.example/manifests', '--api-url', sb.url, '--log-level', 'silent', ...args],
    {
      stdout: { write: (c: string) => void (stdout += c), isTTY: false },
      stderr: { write: (c: string) => void (stderr += c), isTTY: false },
      env: { DOCOPS_TOKEN: sb.token },
      ...(answer !== undefined
        ? {
            ask: async (q: string) => {
              asked.push(q);
              return answer;
            },
          }
        : {}),
    },
  );
  const after = sb.stats();
  const writes = after.total - (after.byMethod['GET'] ?? 0) - (before.total - (before.byMethod['GET'] ?? 0));
  return { code, stdout, stderr, asked, writes };
}

describe('docops apply asks on a terminal', () => {
  it('anything but "yes" writes nothing and exits 1, after showing the plan', async () => {
    for (const answer of ['', 'no', 'y', 'YES ']) {
      const r = await apply([], answer);
      expect(r.asked, answer).toEqual([expect.stringContaining('Apply these changes? Only "yes" applies them')]);
      expect(r.stdout).toContain('Plan: ');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('Apply cancelled: nothing was written');
      expect(r.writes).toBe(0);
    }
  });

  it('"yes" applies', async () => {
    const r = await apply([], 'yes');
    expect(r.asked).toHaveLength(1);
    expect(r.code).toBe(0);
    expect(r.writes).toBeGreaterThan(0);
  });

  it('--yes, no terminal, or no changes: nothing is asked', async () => {
    const yes = await apply(['--yes'], 'no');
    expect([yes.code, yes.asked]).toEqual([0, []]);
    expect(yes.writes).toBeGreaterThan(0);
    await sb!.close();
    sb = undefined;
    const piped = await apply([], undefined);
    expect(piped.code).toBe(0);
    expect(piped.writes).toBeGreaterThan(0);
    const nothing = await apply([], 'no');
    expect([nothing.code, nothing.asked]).toEqual([0, []]);
  });
});
