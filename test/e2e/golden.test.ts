/**
 * The golden corpus (issue 35): what docops writes for a user — plans in text, markdown and JSON, a saved plan,
 * apply reports, a delete journal, the daemon's status JSON and metrics — over a fixed set of scenarios on the
 * sandbox, compared byte for byte (after masking what differs between two runs: times, durations, temporary
 * paths, ports) with the files in test/e2e/golden/. A refactor leaves every one of them unchanged; a change of
 * behaviour shows here as a diff to review. Update them only for a deliberate change: `npx vitest run
 * test/e2e/golden.test.ts -u`, and say why in the commit.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument, type Document } from 'yaml';
import { daemonCommand } from '../../src/cli/commands/daemon.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import { REPO } from '../daemon/build.js';
import { runCli } from '../cli/run-cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'docops-golden-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const golden = (name: string): string => join(REPO, 'test/e2e/golden', name);

/** Masks what two runs of the same scenario do not share, so that the rest can be compared byte for byte. */
function masked(text: string): string {
  return (
    text
      .split(scratch)
      .join('<dir>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      .replace(/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d+Z/g, '<stamp>')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
      // A saved plan's checksum covers its time and the manifests' paths.
      .replace(/"planChecksum": "sha256:[0-9a-f]+"/g, '"planChecksum": "<checksum>"')
      .replace(/"(durationMs|elapsedMs|ms|seconds|durationSeconds|time)": ?[\d.]+/g, '"$1": <n>')
      .replace(/\b\d+(\.\d+)? ?(ms|s)\b(?! ago)/g, '<dur>')
      .replace(/^(docops_[a-z_]*(seconds|timestamp|time)[a-z_]*(\{[^}]*\})?) [\d.e+-]+$/gm, '$1 <n>')
      .replace(/^(process_|nodejs_).*$\n?/gm, '')
  );
}

/** A copy of the example manifests to edit; `state` keeps the sandbox between commands. */
function workspace(name: string): { dir: string; manifests: string; state: string } {
  const dir = join(scratch, name);
  cpSync(join(REPO, 'config.example'), dir, { recursive: true });
  return { dir, manifests: join(dir, 'manifests'), state: join(dir, 'sandbox.json') };
}

/** Edits one document of a manifest file in place (the first whose spec matches `which`). */
function edit(file: string, which: (spec: Record<string, unknown>) => boolean, change: (doc: Document) => void): void {
  const text = readFileSync(file, 'utf8');
  const docs = text.split(/^---\n/m);
  const i = docs.findIndex((d) => {
    const spec = (parseDocument(d).toJS() as { spec?: Record<string, unknown> } | null)?.spec;
    return spec !== undefined && which(spec);
  });
  if (i < 0) throw new Error(`no matching document in ${file}`);
  const doc = parseDocument(docs[i]!);
  change(doc);
  docs[i] = doc.toString();
  writeFileSync(file, docs.join('---\n'));
}

async function cli(args: string[]): Promise<string> {
  const r = await runCli([...args, '--log-level', 'silent'], {});
  return masked(`exit ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`);
}

describe('the golden corpus: what docops writes, byte for byte', () => {
  it('plans the example manifests against the demo organization in text, markdown and JSON', async () => {
    const w = workspace('formats');
    const base = ['plan', '-m', w.manifests, '--sandbox-state', w.state];
    await expect(await cli([...base, '--format', 'text'])).toMatchFileSnapshot(golden('plan.txt'));
    await expect(await cli([...base, '--format', 'markdown'])).toMatchFileSnapshot(golden('plan.md'));
    await expect(await cli([...base, '--format', 'json'])).toMatchFileSnapshot(golden('plan.json.txt'));
    await expect(await cli([...base, '--config', join(w.dir, 'docops.yaml')])).toMatchFileSnapshot(
      golden('plan-config.txt'),
    );
  });

  it('saves a plan, applies exactly it, then plans no changes', async () => {
    const w = workspace('saved');
    const out = join(w.dir, 'plan.json');
    const planned = await cli(['plan', '-m', w.manifests, '--sandbox-state', w.state, '--out', out]);
    await expect(planned).toMatchFileSnapshot(golden('saved-plan.stdout.txt'));
    await expect(masked(readFileSync(out, 'utf8'))).toMatchFileSnapshot(golden('saved-plan.json.txt'));
    const applied = await cli(['apply', '-m', w.manifests, '--sandbox-state', w.state, '--plan', out]);
    await expect(applied).toMatchFileSnapshot(golden('saved-apply.txt'));
    const again = await cli(['plan', '-m', w.manifests, '--sandbox-state', w.state, '--format', 'json']);
    await expect(again).toMatchFileSnapshot(golden('saved-after.json.txt'));
  });

  it('applies edits of every sort, with a prune whose deletes are journaled', async () => {
    const w = workspace('edits');
    const journal = join(w.dir, 'journal');
    const first = await cli(['apply', '-m', w.manifests, '--sandbox-state', w.state, '--format', 'json']);
    await expect(first).toMatchFileSnapshot(golden('edits-first-apply.json.txt'));
    const teams = join(w.manifests, 'teams.yaml');
    edit(
      teams,
      (s) => s['title'] === 'Writers',
      (d) => d.setIn(['spec', 'title'], 'Authors'),
    );
    edit(
      join(w.manifests, 'spaces.yaml'),
      (s) => s['id'] === 'sp-api',
      (d) => d.setIn(['spec', 'emoji'], '📗'),
    );
    edit(
      teams,
      (s) => s['title'] === 'Support',
      (d) => d.setIn(['spec', 'members'], []),
    );
    const args = ['-m', w.manifests, '--sandbox-state', w.state, '--prune', 'Team'];
    // Emptying a list is refused, with the way through named.
    await expect(await cli(['apply', ...args, '--force', '--journal-dir', journal])).toMatchFileSnapshot(
      golden('edits-refused.txt'),
    );
    edit(
      teams,
      (s) => s['title'] === 'Support',
      (d) => d.set('allowEmpty', true),
    );
    // A team no manifest mentions any more, pruned: its delete is journaled first.
    const documents = readFileSync(teams, 'utf8').split(/^---\n/m);
    writeFileSync(teams, documents.filter((d) => !/^\s+title: Platform$/m.test(d)).join('---\n'));
    await expect(await cli(['plan', ...args, '--format', 'markdown'])).toMatchFileSnapshot(golden('edits-plan.md'));
    await expect(await cli(['apply', ...args, '--force', '--journal-dir', journal])).toMatchFileSnapshot(
      golden('edits-apply.txt'),
    );
    const journals = readdirSync(journal).sort();
    expect(journals.length).toBeGreaterThan(0);
    await expect(
      journals.map((f) => `=== ${masked(f)}\n${masked(readFileSync(join(journal, f), 'utf8'))}`).join('\n'),
    ).toMatchFileSnapshot(golden('edits-journal.txt'));
    await expect(await cli(['plan', ...args])).toMatchFileSnapshot(golden('edits-after.txt'));
  });

  it('runs the daemon on the demo: its status JSON and metrics after the first run and a second', async () => {
    const w = workspace('daemon');
    const stop = new AbortController();
    let onStarted!: (d: Daemon) => void;
    const started = new Promise<Daemon>((resolve) => (onStarted = resolve));
    const stderr: string[] = [];
    const exit = daemonCommand(
      ['-c', join(w.dir, 'docops.yaml'), '--sandbox', '--listen', '127.0.0.1:0', '--log-level', 'silent'],
      { stdout: { write: () => undefined }, stderr: { write: (s: string) => stderr.push(s) }, env: {} },
      { stopSignal: stop.signal, processSignals: false, onStarted, deps: { defaultMetrics: false } },
    );
    const daemon = await Promise.race([
      started,
      exit.then((code) => Promise.reject(new Error(`exited early with ${code}: ${stderr.join('')}`))),
    ]);
    await daemon.firstRun;
    await daemon.trigger('http');
    const status = await (await fetch(`${daemon.url}/api/status`)).text();
    const metrics = await (await fetch(`${daemon.url}/metrics`)).text();
    stop.abort();
    expect(await exit).toBe(0);
    await expect(masked(JSON.stringify(JSON.parse(status), null, 2))).toMatchFileSnapshot(
      golden('daemon-status.json.txt'),
    );
    await expect(masked(metrics)).toMatchFileSnapshot(golden('daemon-metrics.txt'));
  });
});
