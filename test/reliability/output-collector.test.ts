/** The secret scanner itself must catch what it claims to: whole, URL-encoded, JSON-escaped, fragments, files and directories. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRAGMENT, OutputCollector, findLeaks, runCliCollecting, scanPath } from '../helpers/output-collector.js';
import { tempDir } from '../helpers/pipeline.js';

const SECRET = 'tok-SECRET-0123456789abcdef';

describe('output collector', () => {
  it('finds a secret whole, URL-encoded, JSON-escaped, or by a fragment; not in unrelated text', () => {
    expect(findLeaks(`Authorization: Bearer ${SECRET}`, [SECRET], 'x')).toEqual([
      { where: 'x', secret: SECRET, found: SECRET },
    ]);
    const share = 'a+b/c=d-secret-share-value';
    expect(findLeaks(`?share=${encodeURIComponent(share)}`, [share], 'x')).toHaveLength(1);
    expect(findLeaks(`token ${SECRET.slice(0, FRAGMENT)}…`, [SECRET], 'x')).toHaveLength(1);
    expect(findLeaks('token [redacted]', [SECRET], 'x')).toEqual([]);
    // A short multi-line secret (no fragments searched) quoted in JSON.
    const key = 'ab"c\nd\\e-key';
    expect(findLeaks(JSON.stringify({ key }), [key], 'x')).toHaveLength(1);
    expect(findLeaks('anything', [''], 'x')).toEqual([]);
  });

  it('scans files and directories it is given', () => {
    const dir = tempDir('collector');
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'a', 'journal.jsonl'), `{"token":"${SECRET}"}\n`);
    writeFileSync(join(dir, 'clean.txt'), 'nothing here\n');
    expect(scanPath(dir, [SECRET]).map((l) => l.where)).toEqual([join(dir, 'a', 'journal.jsonl')]);
    const c = new OutputCollector([SECRET]);
    c.addPath(dir);
    c.io().stderr.write(`oops ${SECRET}`);
    expect(
      c
        .leaks()
        .map((l) => l.where)
        .sort(),
    ).toEqual([join(dir, 'a', 'journal.jsonl'), 'stderr']);
  });

  it('collects a real CLI run', async () => {
    const run = await runCliCollecting(['--version'], {}, [SECRET]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\d+\.\d+/);
    expect(run.leaks()).toEqual([]);
    expect(run.leaks([run.stdout.trim()])).toHaveLength(1);
  });
});
