import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import type { KindDefinition, LiveKindState, LiveObject, UndoFate } from '../../src/model/kind.js';
import { diffAll } from '../../src/engine/reconcile.js';
import { liveKey, type LiveState } from '../../src/model/state.js';
import { KINDS } from '../../src/kinds/index.js';
import { createJournal, type JournalRecord } from '../../src/safety/journal.js';
import { collectParts, mergeAux, objectId, undoRecords } from '../../src/safety/undo.js';
import { readJournal } from '../../src/undo/journal-read.js';
import { desiredFromFiles, undoFiles } from '../../src/undo/documents.js';
import { renderUndoMarkdown, renderUndoText } from '../../src/undo/report.js';
import { recordingClient } from '../engine/helpers.js';
import { fakeKind, manifest, obj } from './helpers.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docops-undo-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const record = (kind: string, key: string, extra: Partial<JournalRecord> = {}): JournalRecord => ({
  v: 2,
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

/** A kind whose objects' fields are plain records. */
type RecordKind = KindDefinition<unknown, LiveObject<Record<string, unknown>>>;

/** A title-keyed kind whose export writes {title, id, parent?} per object, sorted by title. */
function titled(kind: string, extra: Partial<RecordKind> = {}): RecordKind {
  return fakeKind(kind, {
    export: (org, live) =>
      [...live.objects]
        .sort((a, b) => a.key.localeCompare(b.key))
        .map((o) => ({
          apiVersion: 'docops/v1',
          kind,
          metadata: { organization: org },
          spec: { title: o.key, id: o.id, ...(o.fields['parent'] ? { parent: o.fields['parent'] } : {}) },
        })),
    ...extra,
  });
}

const specs = (docs: object[]): unknown[] => docs.map((d) => (d as { spec: unknown }).spec);

describe('readJournal', () => {
  it('reads format 1 and format 2 records', async () => {
    const file = path.join(dir, 'j.jsonl');
    const v1 = { ...record('Team', 'a'), v: 1 };
    const v2 = record('Team', 'b', {
      snapshot: 'complete',
      state: { Team: { objects: [obj('Team', 'o1', 'b', { title: 'b' }, 'id-b')] } },
    });
    writeFileSync(file, `${JSON.stringify(v1)}\n\n${JSON.stringify(v2)}\n`);
    expect((await readJournal(file)).map((r) => [r.v, r.key])).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
  });

  it('rejects a file that is not a journal, naming the line', async () => {
    const file = path.join(dir, 'j.jsonl');
    writeFileSync(file, JSON.stringify(record('Team', 'a')) + '\n{oops\n');
    await expect(readJournal(file)).rejects.toThrow(`${file}:2: not a JSON line`);
    writeFileSync(file, JSON.stringify({ ...record('Team', 'a'), v: 9 }) + '\n');
    await expect(readJournal(file)).rejects.toThrow(/journal format 9 is not supported \(expected one of 1, 2\)/);
    writeFileSync(file, JSON.stringify({ ...record('Team', 'a'), state: { Team: { objects: [{ id: 1 }] } } }) + '\n');
    await expect(readJournal(file)).rejects.toThrow(`${file}:1: record has a malformed state`);
    await expect(readJournal(path.join(dir, 'missing.jsonl'))).rejects.toThrow(/cannot read journal/);
  });

  // Every field undo reads is checked on the line it is written on: a malformed one was read as typed and failed
  // later (a `redacted` string made undo's notes throw a TypeError).
  it.each([
    ['redacted', 'fields.token', 'a malformed redacted list'],
    ['snapshot', 'all', 'no snapshot (complete | live | plan)'],
    ['phase', 'remove', 'no phase (create | update | delete | prune)'],
    ['action', undefined, 'no action (create | update | delete)'],
    ['stepId', 7, 'no stepId'],
    ['time', null, 'no time'],
    ['id', 42, 'a malformed id'],
  ])('rejects a record whose %s is %j, naming the line', async (field, bad, message) => {
    const file = path.join(dir, 'j.jsonl');
    writeFileSync(
      file,
      JSON.stringify(record('Team', 'a')) + '\n' + JSON.stringify({ ...record('Team', 'b'), [field]: bad }) + '\n',
    );
    await expect(readJournal(file)).rejects.toThrow(`${file}:2: record has ${message}`);
  });
});

describe('collectParts', () => {
  const kinds = [titled('Collection'), titled('Space')];

  it('merges the parts of every record per (kind, org) in registry order; an object twice counts once (the first wins)', () => {
    const collection = record('Collection', 'C', {
      snapshot: 'complete',
      state: {
        Collection: { objects: [obj('Collection', 'o1', 'C', { title: 'C' }, 'c1')] },
        Space: {
          objects: [obj('Space', 'o1', 'Inside', { title: 'Inside', parent: 'c1' }, 's1')],
          aux: { seen: { s1: 1 }, list: ['a'] },
        },
      },
    });
    const space = record('Space', 'Inside', {
      id: 's1',
      snapshot: 'complete',
      state: {
        Space: {
          objects: [obj('Space', 'o1', 'Inside', { title: 'later' }, 's1'), obj('Space', 'o1', 'Other', {}, 's2')],
          aux: { seen: { s2: 2, s1: 9 }, list: ['a', 'b'] },
        },
      },
    });
    const input = collectParts([space, collection, record('Space', 'Loose', { org: 'o2', id: 's9' })], kinds);
    expect(input.parts.map((p) => [p.kind.kind, p.org, p.state.objects.map((o) => o.id)])).toEqual([
      ['Collection', 'o1', ['c1']],
      ['Space', 'o1', ['s1', 's2']],
      ['Space', 'o2', ['s9']],
    ]);
    const spaces = input.parts[1]!.state;
    expect(spaces.objects[0]!.fields).toEqual({ title: 'later' });
    expect(spaces.aux).toEqual({ seen: { s1: 9, s2: 2 }, list: ['a', 'b'] });
  });

  it('lists objects of kinds that are not manifest kinds as not coming back', () => {
    const input = collectParts([record('SiteSection', 'Docs/api')], kinds);
    expect(input.parts).toEqual([]);
    expect(input.loose).toEqual([
      {
        kind: 'SiteSection',
        org: 'o1',
        key: 'Docs/api',
        id: 'id-Docs/api',
        outcome: 'none',
        reason:
          "SiteSection is not a manifest kind (it is part of another kind's objects); recreate it in its parent's manifest",
        losses: [],
      },
    ]);
  });

  it('notes what a snapshot itself lacks: plan-only fields, a format-1 record of a kind that snapshots now, redacted fields', () => {
    const snapshotting = titled('Space', { snapshot: async () => ({}) });
    const input = collectParts(
      [
        record('Collection', 'P', { snapshot: 'plan', id: undefined }),
        { ...record('Space', 'Old'), v: 1 },
        record('Collection', 'R', {
          snapshot: 'complete',
          redacted: ['state.Collection.aux.apiToken'],
          state: { Collection: { objects: [obj('Collection', 'o1', 'R', {}, 'id-R')] } },
        }),
      ],
      [titled('Collection'), snapshotting],
    );
    expect(Object.fromEntries(input.notes)).toEqual({
      [objectId('Collection', 'o1', 'key:P')]: [
        'no live snapshot was found when it was deleted: only the fields the plan recorded come back',
      ],
      [objectId('Space', 'o1', 'id-Old')]: [
        'journaled without a complete snapshot (journal format 1): only its own fields come back, not what its delete took along',
      ],
      [objectId('Collection', 'o1', 'id-R')]: [
        'fields whose names look like secrets were not journaled and do not come back: state.Collection.aux.apiToken',
      ],
    });
  });

  it('merges aux records by key (first wins) and lists as sets', () => {
    expect(mergeAux(undefined, { a: 1 })).toEqual({ a: 1 });
    expect(
      mergeAux(
        { r: { x: 1 }, l: [{ id: 1 }], s: 'first' },
        { r: { x: 2, y: 3 }, l: [{ id: 1 }, { id: 2 }], s: 'second', n: 4 },
      ),
    ).toEqual({
      r: { x: 1, y: 3 },
      l: [{ id: 1 }, { id: 2 }],
      s: 'first',
      n: 4,
    });
  });
});

describe('undoRecords', () => {
  const relinking = (kind: string): RecordKind =>
    titled(kind, {
      undo: {
        relink: (org, state, refs) => ({
          ...state,
          objects: state.objects.map((o) => {
            const p = o.fields['parent'];
            const name = typeof p === 'string' ? refs.recreated('Collection', org, p) : undefined;
            return name === undefined ? o : { ...o, fields: { ...o.fields, parent: name } };
          }),
        }),
        losses: (_org, state) =>
          state.objects
            .filter((o) => o.key === 'Inside')
            .map((o) => ({ key: o.key, id: o.id, message: 'lost its comments' })),
      },
    });
  const kinds = [titled('Collection'), relinking('Space')];
  const input = () =>
    collectParts(
      [
        record('Collection', 'C', {
          id: 'c1',
          snapshot: 'complete',
          state: {
            Collection: { objects: [obj('Collection', 'o1', 'C', {}, 'c1')] },
            Space: {
              objects: [
                obj('Space', 'o1', 'Inside', { parent: 'c1' }, 's1'),
                obj('Space', 'o1', 'Old', { parent: 'c1' }, 's2'),
              ],
            },
          },
        }),
      ],
      kinds,
    );

  it('recreates without the old pins, keeps the pins of restored objects, and names recreated objects by key in the others', () => {
    const fates = new Map<string, UndoFate>([
      [objectId('Space', 'o1', 's1'), { state: 'restore' }],
      [objectId('Space', 'o1', 's2'), { state: 'recreate', reason: 'past its retention' }],
    ]);
    const result = undoRecords(input(), fates);
    expect(specs(result.documents)).toEqual([
      { title: 'C' },
      { title: 'Inside', id: 's1', parent: 'C' },
      { title: 'Old', parent: 'C' },
    ]);
    expect(result.objects.map((o) => [o.kind, o.key, o.outcome, o.reason, o.losses])).toEqual([
      [
        'Collection',
        'C',
        'recreate',
        undefined,
        ['gets a new id (it was c1): manifests, links or settings that name c1 must name the new one (or the title)'],
      ],
      ['Space', 'Inside', 'restore', undefined, ['lost its comments']],
      [
        'Space',
        'Old',
        'recreate',
        'past its retention',
        ['gets a new id (it was s2): manifests, links or settings that name s2 must name the new one (or the title)'],
      ],
    ]);
  });

  it('names a surviving or restored collection by its id', () => {
    const fates = new Map<string, UndoFate>([[objectId('Collection', 'o1', 'c1'), { state: 'live' }]]);
    const result = undoRecords(input(), fates);
    expect(specs(result.documents)).toEqual([
      { title: 'C', id: 'c1' },
      { title: 'Inside', parent: 'c1' },
      { title: 'Old', parent: 'c1' },
    ]);
    expect(result.objects[0]).toMatchObject({ outcome: 'live', losses: [] });
  });

  it('says when a kind cannot bring its objects back', () => {
    const throwing = fakeKind('Broken', {
      export: () => {
        throw new Error('needs aux');
      },
    });
    const result = undoRecords(
      collectParts(
        [record('Plain', 'p1'), record('Broken', 'b1'), record('Empty', 'e1')],
        [fakeKind('Plain'), throwing, fakeKind('Empty', { export: () => [] })],
      ),
    );
    expect(result.documents).toEqual([]);
    expect(result.objects.map((n) => `${n.kind}/${n.key} ${n.outcome}: ${n.reason}`)).toEqual([
      'Plain/p1 none: kind Plain cannot export manifests',
      'Broken/b1 none: export failed: needs aux',
      'Empty/e1 none: its kind exported no document for it',
    ]);
  });

  it("uses a kind's own undo documents: removed members are invited again", () => {
    const members = record('Members', 'bob@x.io', {
      id: 'u2',
      fields: { email: 'Bob@x.io', role: 'edit', sso: false },
    });
    const result = undoRecords(collectParts([members], KINDS));
    expect(specs(result.documents)).toEqual([{ invite: true, members: [{ email: 'Bob@x.io', role: 'edit' }] }]);
  });
});

describe('undo documents of a real prune', () => {
  /** Runs a pruning plan of the real kinds through apply with a journal (no client: plan-time snapshots). */
  async function journalOfPrune(): Promise<JournalRecord[]> {
    const live: LiveState = new Map<string, LiveKindState>([
      [
        liveKey('Team', 'o1'),
        {
          objects: [
            obj('Team', 'o1', 'Keep', { title: 'Keep' }, 't0'),
            obj('Team', 'o1', 'Platform', { title: 'Platform' }, 't1'),
          ],
          aux: { orgMembers: {} },
        },
      ],
      [
        liveKey('Translation', 'o1'),
        {
          objects: [
            obj('Translation', 'o1', 'German', { title: 'German', languages: [] }, 'tr0'),
            obj('Translation', 'o1', 'French', { title: 'French', languages: ['fr'] }, 'tr1'),
          ],
        },
      ],
      [
        liveKey('Members', 'o1'),
        {
          objects: [
            obj('Members', 'o1', 'ann@x.io', { email: 'ann@x.io', role: 'admin', sso: false }, 'u1'),
            obj('Members', 'o1', 'bob@x.io', { email: 'Bob@x.io', role: 'edit', sso: false }, 'u2'),
          ],
        },
      ],
    ]);
    const docs = [
      manifest('Team', 'o1', { title: 'Keep' }, true),
      manifest('Translation', 'o1', { title: 'German' }, true),
      manifest('Members', 'o1', { members: [{ email: 'ann@x.io', role: 'admin' }] }, true),
    ];
    const desired = new Map(
      KINDS.map((k) => [k.kind, docs.filter((d) => d.kind === k.kind).flatMap((d) => k.toDesired(d, () => {}))]),
    );
    const plan = diffAll(KINDS, desired, live);
    const journal = createJournal(path.join(dir, 'journals'), live);
    expect(
      (
        await applyPlan(
          recordingClient(() => ({})),
          plan,
          { beforeStep: journal.beforeStep },
        )
      ).applied,
    ).toHaveLength(3);
    return readJournal(journal.file);
  }

  it('turns a journal into documents that the normal plan path recreates, as files the loader reads back', async () => {
    const result = undoRecords(collectParts(await journalOfPrune(), KINDS));
    const files = undoFiles(result.documents, KINDS);
    expect(files.map((f) => f.name)).toEqual(['undo-Members-o1.yaml', 'undo-Team-o1.yaml', 'undo-Translation-o1.yaml']);
    // A plan-time snapshot of a kind that now snapshots completely says what it lacks.
    expect(result.objects.find((o) => o.kind === 'Team')!.losses[0]).toMatch(/^journaled without a complete snapshot/);
    const recreate = diffAll(KINDS, desiredFromFiles(files, KINDS), new Map(), { invite: true });
    expect(recreate.steps.map((s) => `${s.id} ${s.phase}`).sort()).toEqual([
      'Members/o1/invite#create create',
      'Team/o1/Platform#create create',
      'Translation/o1/French#create create',
    ]);
    expect(recreate.steps.find((s) => s.kind === 'Members')!.requests[0]!.body).toEqual({
      emails: [{ email: 'Bob@x.io', role: 'edit' }],
      sso: false,
    });
  });

  it('writes user text that looks like a variable so that it reads back as written', () => {
    const result = undoRecords(
      collectParts([record('Team', 'Costs ${HOME} $${x}', { fields: { title: 'Costs ${HOME} $${x}' } })], KINDS),
    );
    const desired = desiredFromFiles(undoFiles(result.documents, KINDS), KINDS);
    expect(desired.get('Team')!.map((e) => e.key)).toEqual(['Costs ${HOME} $${x}']);
  });
});

describe('the undo report', () => {
  const result = {
    documents: [],
    objects: [
      { kind: 'Space', org: 'o1', key: 'A|B', id: 's1', outcome: 'restore' as const, losses: [] },
      {
        kind: 'Site',
        org: 'o1',
        key: 'Docs',
        id: 'site-1',
        outcome: 'recreate' as const,
        losses: ['share link "x" is recreated with a new secret URL'],
      },
      {
        kind: 'SiteSection',
        org: 'o1',
        key: 'Docs/api',
        outcome: 'none' as const,
        reason: 'not a manifest kind',
        losses: [],
      },
    ],
  };

  it('lists each object with what undo does, then what does not come back (text and markdown)', () => {
    expect(renderUndoText('j.jsonl', result)).toBe(
      [
        'Undo of j.jsonl: 3 deleted object(s): 1 to restore, 1 to recreate, 1 cannot come back.',
        '',
        '  restore   Space o1/A|B (s1): restored through the API: keeps its id and content',
        '  recreate  Site o1/Docs (site-1): recreated from its document',
        '  cannot    SiteSection o1/Docs/api: cannot come back: not a manifest kind',
        '',
        'What does not come back:',
        '  - Site o1/Docs (site-1): share link "x" is recreated with a new secret URL',
        '',
      ].join('\n'),
    );
    const md = renderUndoMarkdown('j.jsonl', result, { offline: true });
    expect(md).toContain(
      '| restore | `Space o1/A\\|B (s1)` | restorable through the API (keeps its id and content): only `docops undo --apply` restores, and checks it still can |',
    );
    expect(md).toContain('- `Site o1/Docs (site-1)`: share link "x" is recreated with a new secret URL');
  });
});
