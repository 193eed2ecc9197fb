import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { applyPlan } from '../../src/core/apply.js';
import { UsageError } from '../../src/core/errors.js';
import type { LiveKindState } from '../../src/core/kind.js';
import { diffAll, liveKey, type LiveState } from '../../src/core/reconcile.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import { createJournal, type JournalRecord } from '../../src/safety/journal.js';
import { readJournal, undoRecords } from '../../src/safety/undo.js';
import { undoCommand } from '../../src/safety/undo-command.js';
import { recordingClient } from '../core/helpers.js';
import { fakeKind, manifest, obj } from './helpers.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docops-undo-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function sink(): { write(s: string): void; text: string } {
  return {
    text: '',
    write(s: string) {
      this.text += s;
    },
  };
}

/** Runs a pruning plan of the real kinds through apply with a journal; returns the journal file. */
async function journalOfPrune(): Promise<string> {
  const live: LiveState = new Map<string, LiveKindState>([
    [liveKey('Team', 'o1'), { objects: [obj('Team', 'o1', 'Keep', { title: 'Keep' }, 't0'), obj('Team', 'o1', 'Platform', { title: 'Platform' }, 't1')], aux: { orgMembers: {} } }],
    [
      liveKey('Translation', 'o1'),
      { objects: [obj('Translation', 'o1', 'German', { title: 'German', languages: [] }, 'tr0'), obj('Translation', 'o1', 'French', { title: 'French', languages: ['fr'] }, 'tr1')] },
    ],
    [
      liveKey('Members', 'o1'),
      { objects: [obj('Members', 'o1', 'ann@x.io', { email: 'ann@x.io', role: 'admin', sso: false }, 'u1'), obj('Members', 'o1', 'bob@x.io', { email: 'Bob@x.io', role: 'edit', sso: false }, 'u2')] },
    ],
  ]);
  const docs = [
    manifest('Team', 'o1', { title: 'Keep' }, true),
    manifest('Translation', 'o1', { title: 'German' }, true),
    manifest('Members', 'o1', { members: [{ email: 'ann@x.io', role: 'admin' }] }, true),
  ];
  const desired = new Map(KINDS.map((k) => [k.kind, docs.filter((d) => d.kind === k.kind).flatMap((d) => k.toDesired(d, () => {}))]));
  const plan = diffAll(KINDS, desired, live);
  expect(plan.steps.map((s) => s.id).sort()).toEqual(['Members/o1/bob@x.io#delete', 'Team/o1/Platform#delete', 'Translation/o1/French#delete']);
  const journal = createJournal(path.join(dir, 'journals'), live);
  const report = await applyPlan(recordingClient(() => ({})), plan, { beforeStep: journal.beforeStep });
  expect(report.applied).toHaveLength(3);
  return journal.file;
}

describe('docops undo', () => {
  it('turns a journal back into manifests that the normal plan path recreates', async () => {
    const journal = await journalOfPrune();
    const out = path.join(dir, 'restore');
    const stdout = sink();
    const stderr = sink();
    expect(await undoCommand([journal, '-o', out], { stdout, stderr }, KINDS)).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['undo-Members-o1.yaml', 'undo-Team-o1.yaml', 'undo-Translation-o1.yaml']);
    expect(stdout.text).toContain('wrote ');
    expect(stderr.text).toContain('3 document(s)');
    expect(stderr.text).toContain('Members bob@x.io in o1: members can only be re-invited by e-mail');

    // The deleted objects' ids are gone: no pins to them are written.
    expect(readFileSync(path.join(out, 'undo-Team-o1.yaml'), 'utf8')).not.toContain('t1');

    const { desired } = await loadManifests(out, KINDS);
    const recreate = diffAll(KINDS, desired, new Map(), { invite: true });
    expect(recreate.steps.map((s) => `${s.id} ${s.phase}`).sort()).toEqual(['Members/o1/invite#create create', 'Team/o1/Platform#create create']);
    // The API cannot set a translation's languages: the restored French (languages [fr]) is blocked, not half made.
    expect(recreate.blocked.map((b) => `${b.kind} ${b.key}`)).toEqual(['Translation French']);
    const invite = recreate.steps.find((s) => s.kind === 'Members')!;
    expect(invite.requests[0]!.body).toEqual({ emails: [{ email: 'Bob@x.io', role: 'edit' }], sso: false });
  });

  it('prints the documents as YAML when no output directory is given', async () => {
    const journal = await journalOfPrune();
    const stdout = sink();
    expect(await undoCommand([journal], { stdout, stderr: sink() }, KINDS)).toBe(0);
    const docs = parseAllDocuments(stdout.text).map((d) => d.toJS() as { kind: string; spec: Record<string, unknown> });
    expect(docs.map((d) => d.kind).sort()).toEqual(['Members', 'Team', 'Translation']);
    expect(docs.find((d) => d.kind === 'Translation')!.spec).toEqual({ title: 'French', languages: ['fr'] });
  });

  it('never overwrites existing files and rejects bad arguments', async () => {
    const journal = await journalOfPrune();
    const out = path.join(dir, 'restore');
    await undoCommand([journal, '--output', out], { stdout: sink(), stderr: sink() }, KINDS);
    await expect(undoCommand([journal, '-o', out], { stdout: sink(), stderr: sink() }, KINDS)).rejects.toThrow(/already exists/);
    await expect(undoCommand([], { stdout: sink(), stderr: sink() }, KINDS)).rejects.toBeInstanceOf(UsageError);
    await expect(undoCommand([journal, '--bogus'], { stdout: sink(), stderr: sink() }, KINDS)).rejects.toBeInstanceOf(UsageError);
    await expect(undoCommand([path.join(dir, 'missing.jsonl')], { stdout: sink(), stderr: sink() }, KINDS)).rejects.toThrow(/cannot read journal/);
  });
});

const record = (kind: string, key: string, extra: Partial<JournalRecord> = {}): JournalRecord => ({
  v: 1,
  time: '2030-01-01T00:00:00.000Z',
  stepId: `${kind}/o1/${key}#delete`,
  phase: 'prune',
  action: 'delete',
  kind,
  org: 'o1',
  key,
  objectKey: key,
  id: `id-${key}`,
  fields: { title: key },
  snapshot: 'live',
  ...extra,
});

describe('undoRecords', () => {
  it('lists what cannot be recreated, with reasons', () => {
    const kinds = [fakeKind('Plain'), fakeKind('Broken', { export: () => { throw new Error('needs aux'); } }), fakeKind('Empty', { export: () => [] })];
    const result = undoRecords([record('SiteSection', 's1'), record('Plain', 'p1'), record('Broken', 'b1'), record('Empty', 'e1')], kinds);
    expect(result.documents).toEqual([]);
    expect(result.notRecreatable.map((n) => `${n.kind}/${n.key}: ${n.reason}`)).toEqual([
      'Broken/b1: export failed: needs aux',
      'Empty/e1: its kind exported no document for it',
      'Plain/p1: kind Plain cannot export manifests',
      "SiteSection/s1: SiteSection is not a manifest kind (it is part of another kind's objects); recreate it in its parent's manifest",
    ]);
  });

  it('exports each (kind, org) group once, drops pins to gone ids and notes plan-only snapshots', () => {
    const exported: { org: string; keys: string[] }[] = [];
    const thing = fakeKind('Thing', {
      export: (org, live) => {
        exported.push({ org, keys: live.objects.map((o) => o.key) });
        return live.objects.map((o) => ({ kind: 'Thing', metadata: { organization: org }, spec: { title: o.key, id: o.id, other: 'keep' } }));
      },
    });
    const result = undoRecords(
      [record('Thing', 'a'), record('Thing', 'b', { id: undefined, snapshot: 'plan' }), record('Thing', 'a'), record('Thing', 'c', { org: 'o2' })],
      [thing],
    );
    expect(exported).toEqual([
      { org: 'o1', keys: ['a', 'b'] },
      { org: 'o2', keys: ['c'] },
    ]);
    expect(result.documents.map((d) => (d as { spec: unknown }).spec)).toEqual([
      { title: 'a', other: 'keep' },
      { title: 'b', other: 'keep' },
      { title: 'c', other: 'keep' },
    ]);
    expect(result.caveats).toEqual([{ kind: 'Thing', org: 'o1', key: 'b', note: 'no live snapshot was found; only the fields the plan recorded are restored' }]);
  });

  it('rejects a file that is not a journal, naming the line', async () => {
    const file = path.join(dir, 'j.jsonl');
    writeFileSync(file, JSON.stringify(record('Team', 'a')) + '\n{oops\n');
    await expect(readJournal(file)).rejects.toThrow(`${file}:2: not a JSON line`);
    writeFileSync(file, JSON.stringify({ ...record('Team', 'a'), v: 9 }) + '\n');
    await expect(readJournal(file)).rejects.toThrow(/journal format 9 is not supported/);
  });
});
