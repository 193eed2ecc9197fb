import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import { compileSchema } from '../../src/manifests/schema.js';
import { journalSchema } from '../../src/model/format-schemas.js';
import type { LiveKindState } from '../../src/model/kind.js';
import { emptyPlan, type Plan } from '../../src/model/plan.js';
import { liveKey, type LiveState } from '../../src/model/state.js';
import { createJournal, journalFileName, type JournalRecord } from '../../src/safety/journal.js';
import { clearSecretsForTests, REDACTED, registerSecret } from '../../src/secrets.js';
import { recordingClient } from '../engine/helpers.js';
import { changeStep, fakeKind, field, obj } from './helpers.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docops-journal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The records of a journal; each line written must be one schemas/journal.schema.json describes, member for member. */
const readRecords = (file: string): JournalRecord[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => {
          const record = JSON.parse(l) as JournalRecord;
          const validate = compileSchema(journalSchema());
          expect(validate(record), `a journal line the schema refuses: ${JSON.stringify(validate.errors)}`).toBe(true);
          return record;
        })
    : [];

const teamsLive = (): LiveState =>
  new Map<string, LiveKindState>([
    [
      liveKey('Team', 'o1'),
      {
        objects: [
          obj('Team', 'o1', 'platform', { title: 'platform' }, 't1'),
          obj('Team', 'o1', 'docs', { title: 'docs' }, 't2'),
        ],
      },
    ],
  ]);

const plan = (...steps: Plan['steps']): Plan => ({ ...emptyPlan(), steps });

describe('delete journal', () => {
  it('writes the snapshot before the DELETE request is sent', async () => {
    const journal = createJournal(dir, teamsLive(), { now: () => new Date('2030-01-02T03:04:05.678Z') });
    expect(path.basename(journal.file)).toBe('journal-2030-01-02T03-04-05-678Z.jsonl');
    const seenAtDelete: JournalRecord[][] = [];
    const client = recordingClient((r) => {
      if (r.method === 'DELETE') seenAtDelete.push(readRecords(journal.file));
      return {};
    });
    const del = changeStep('Team', 'o1', 'platform', 'prune', {
      requests: [{ method: 'DELETE', path: '/orgs/o1/teams/t1' }],
    });
    const upd = changeStep('Team', 'o1', 'docs', 'update');
    const report = await applyPlan(client, plan(upd, del), { beforeStep: journal.beforeStep });

    expect(report.failed).toEqual([]);
    expect(seenAtDelete).toHaveLength(1);
    expect(seenAtDelete[0]).toEqual([
      {
        v: 2,
        time: '2030-01-02T03:04:05.678Z',
        stepId: del.id,
        phase: 'prune',
        action: 'delete',
        kind: 'Team',
        org: 'o1',
        key: 'platform',
        objectKey: 'platform',
        id: 't1',
        fields: { title: 'platform' },
        snapshot: 'live',
      },
    ]);
    // only deletes are journaled
    expect(readRecords(journal.file)).toHaveLength(1);
  });

  it('fails the step and sends no DELETE when the journal cannot be written', async () => {
    const blocker = path.join(dir, 'not-a-dir');
    writeFileSync(blocker, 'x');
    const journal = createJournal(path.join(blocker, 'journal'), teamsLive());
    const client = recordingClient(() => ({}));
    const del = changeStep('Team', 'o1', 'platform', 'prune', {
      requests: [{ method: 'DELETE', path: '/orgs/o1/teams/t1' }],
    });
    const after = changeStep('Team', 'o1', 'docs', 'prune', { dependsOn: [del.id], wave: -1 });
    const report = await applyPlan(client, plan(del, after), { beforeStep: journal.beforeStep });
    expect(report.failed.map((f) => f.stepId)).toEqual([del.id]);
    expect(report.skipped).toEqual([after.id]);
    expect(client.calls).toEqual([]);
  });

  it('does not create a file when a run deletes nothing', async () => {
    const journal = createJournal(dir, teamsLive());
    await applyPlan(recordingClient(), plan(changeStep('Team', 'o1', 'docs', 'update')), {
      beforeStep: journal.beforeStep,
    });
    expect(existsSync(journal.file)).toBe(false);
  });

  it('keeps one whole line per delete when deletes run concurrently', async () => {
    const objects = Array.from({ length: 12 }, (_, i) =>
      obj('Team', 'o1', `t${i}`, { title: `t${i}`, note: 'x'.repeat(5000) }, `id${i}`),
    );
    const live: LiveState = new Map([[liveKey('Team', 'o1'), { objects }]]);
    const journal = createJournal(dir, live);
    const steps = objects.map((o) => changeStep('Team', 'o1', o.key, 'prune'));
    const report = await applyPlan(recordingClient(), plan(...steps), {
      beforeStep: journal.beforeStep,
      concurrency: 6,
    });
    expect(report.applied).toHaveLength(12);
    expect(
      readRecords(journal.file)
        .map((r) => r.id)
        .sort(),
    ).toEqual(objects.map((o) => o.id).sort());
  });

  it('never stores tokens or share-link secrets', async () => {
    const fields = {
      title: 'docs',
      token: 'tok-123',
      apiToken: 'tok-456',
      shareKey: 'sk-789',
      nested: { clientSecret: 'cs-000', keep: 'yes' },
      urls: {
        published: 'https://docs.example/s/abc?token=sec-111',
        location: 'https://app.example/x?shareKey=sec-222&page=2',
      },
      links: [{ name: 'l1', urls: { published: 'https://docs.example/share/sec-333' } }],
    };
    const live: LiveState = new Map([[liveKey('Site', 'o1'), { objects: [obj('Site', 'o1', 'docs', fields, 's1')] }]]);
    const journal = createJournal(dir, live);
    await applyPlan(recordingClient(), plan(changeStep('Site', 'o1', 'docs', 'prune')), {
      beforeStep: journal.beforeStep,
    });
    const text = readFileSync(journal.file, 'utf8');
    for (const secret of ['tok-123', 'tok-456', 'sk-789', 'cs-000', 'sec-111', 'sec-222', 'sec-333'])
      expect(text).not.toContain(secret);
    expect(readRecords(journal.file)[0]!.fields).toEqual({
      title: 'docs',
      nested: { keep: 'yes' },
      urls: { location: 'https://app.example/x?shareKey=REDACTED&page=2' },
      links: [{ name: 'l1', urls: {} }],
    });
    // …and says what it left out, so undo can tell the user.
    expect(readRecords(journal.file)[0]!.redacted).toEqual([
      'fields.token',
      'fields.apiToken',
      'fields.shareKey',
      'fields.nested.clientSecret',
      'fields.urls.published',
      'fields.links[0].urls.published',
    ]);
  });

  it('redacts a registered secret wherever it sits in the line: a title, the key, the step id', async () => {
    const token = 'journal-token-0123456789abcdef';
    registerSecret(token);
    try {
      const title = `leak ${token}`;
      const live: LiveState = new Map([
        [liveKey('Team', 'o1'), { objects: [obj('Team', 'o1', title, { title }, 't1')] }],
      ]);
      const journal = createJournal(dir, live);
      await applyPlan(recordingClient(), plan(changeStep('Team', 'o1', title, 'prune')), {
        beforeStep: journal.beforeStep,
      });
      const text = readFileSync(journal.file, 'utf8');
      expect(text).not.toContain(token.slice(0, 12));
      expect(readRecords(journal.file)[0]!.key).toBe(`leak ${REDACTED}`);
    } finally {
      clearSecretsForTests();
    }
  });

  it('finds the object behind a duplicate-title key, or by the id in the DELETE path', async () => {
    const objects = [
      obj('Team', 'o1', 'dup', { title: 'dup' }, 'a1'),
      obj('Team', 'o1', 'dup', { title: 'dup' }, 'a2'),
      obj('Team', 'o1', 'old', { title: 'old' }, 'a3'),
    ];
    const live: LiveState = new Map([[liveKey('Team', 'o1'), { objects }]]);
    const journal = createJournal(dir, live);
    const byUniqueKey = changeStep('Team', 'o1', 'dup (a2)', 'prune');
    const byPath = changeStep('Team', 'o1', 'renamed-meanwhile', 'prune', {
      requests: [{ method: 'DELETE', path: '/orgs/o1/teams/a3' }],
    });
    const unknown = changeStep('Team', 'o1', 'ghost', 'prune', {
      before: { title: 'ghost' },
      requests: [{ method: 'DELETE', path: '/orgs/o1/teams/zz' }],
    });
    await applyPlan(recordingClient(), plan(byUniqueKey, byPath, unknown), {
      beforeStep: journal.beforeStep,
      concurrency: 1,
    });
    const records = readRecords(journal.file);
    expect(records.map((r) => [r.key, r.objectKey, r.id, r.snapshot])).toEqual([
      ['dup (a2)', 'dup', 'a2', 'live'],
      ['renamed-meanwhile', 'old', 'a3', 'live'],
      ['ghost', 'ghost', undefined, 'plan'],
    ]);
    expect(records[2]!.fields).toEqual({ title: 'ghost' });
  });

  it('names journals by time so runs never share a file', () => {
    expect(journalFileName(new Date('2030-01-02T03:04:05.678Z'))).toBe('journal-2030-01-02T03-04-05-678Z.jsonl');
  });
});

describe('complete snapshots (kinds with a snapshot hook)', () => {
  const del = (key: string, id: string) =>
    changeStep('Team', 'o1', key, 'prune', { requests: [{ method: 'DELETE', path: `/orgs/o1/teams/${id}` }] });

  it('reads the snapshot through the API before the DELETE and journals it with what the delete takes along', async () => {
    const team = fakeKind('Team', {
      snapshot: async (ctx, o) => {
        const members = await ctx.get<string[]>(`/orgs/o1/teams/${o.id}/members`);
        return { Team: { objects: [{ ...o, fields: { ...o.fields, members } }] } };
      },
    });
    const client = recordingClient((r) => (r.method === 'GET' ? ['ann@x.io', 'bob@x.io'] : {}));
    const journal = createJournal(dir, teamsLive(), { client, kinds: [team] });
    const report = await applyPlan(client, plan(del('platform', 't1')), { beforeStep: journal.beforeStep });
    expect(report.failed).toEqual([]);
    expect(client.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /orgs/o1/teams/t1/members',
      'DELETE /orgs/o1/teams/t1',
    ]);
    const [record] = readRecords(journal.file);
    expect(record!.snapshot).toBe('complete');
    expect(record!.fields).toEqual({ title: 'platform' });
    expect(record!.state).toEqual({
      Team: {
        objects: [
          {
            kind: 'Team',
            org: 'o1',
            key: 'platform',
            id: 't1',
            fields: { title: 'platform', members: ['ann@x.io', 'bob@x.io'] },
          },
        ],
      },
    });
  });

  it('fails the step and sends no DELETE when the snapshot cannot be read', async () => {
    const team = fakeKind('Team', {
      snapshot: async () => {
        throw new Error('GET /orgs/o1/teams/t1/members: 503');
      },
    });
    const client = recordingClient(() => ({}));
    const journal = createJournal(dir, teamsLive(), { client, kinds: [team] });
    const report = await applyPlan(client, plan(del('platform', 't1')), { beforeStep: journal.beforeStep });
    expect(report.failed).toEqual([
      { stepId: 'Team/o1/platform#delete', message: 'GET /orgs/o1/teams/t1/members: 503' },
    ]);
    expect(client.calls).toEqual([]);
    expect(existsSync(journal.file)).toBe(false);
  });

  it('reads each snapshot afresh: an earlier delete of the run is seen by the later snapshots', async () => {
    let reads = 0;
    const team = fakeKind('Team', {
      snapshot: async (ctx, o) => ({
        Team: { objects: [{ ...o, fields: { seen: await ctx.get<number>('/orgs/o1/teams') } }] },
      }),
    });
    const client = recordingClient((r) => (r.method === 'GET' ? ++reads : {}));
    const journal = createJournal(dir, teamsLive(), { client, kinds: [team] });
    await applyPlan(client, plan(del('platform', 't1'), { ...del('docs', 't2'), wave: -1 }), {
      beforeStep: journal.beforeStep,
    });
    expect(readRecords(journal.file).map((r) => field(r.state!['Team']!.objects[0]!, 'seen'))).toEqual([1, 2]);
  });

  it('drops secrets inside the snapshot too, and lists them', async () => {
    const team = fakeKind('Team', {
      snapshot: async () => ({
        Team: {
          objects: [],
          aux: { links: [{ name: 'l1', urls: { published: 'https://x/s?share=sec-444' } }], apiToken: 'tok-555' },
        },
      }),
    });
    const journal = createJournal(dir, teamsLive(), { client: recordingClient(), kinds: [team] });
    await applyPlan(recordingClient(), plan(del('platform', 't1')), { beforeStep: journal.beforeStep });
    const text = readFileSync(journal.file, 'utf8');
    expect(text).not.toContain('sec-444');
    expect(text).not.toContain('tok-555');
    expect(readRecords(journal.file)[0]!.redacted).toEqual([
      'state.Team.aux.links[0].urls.published',
      'state.Team.aux.apiToken',
    ]);
  });

  it('without a client, or for kinds without a hook, keeps the object as the plan fetched it', async () => {
    const journal = createJournal(dir, teamsLive(), { kinds: [fakeKind('Team', { snapshot: async () => ({}) })] });
    await applyPlan(recordingClient(), plan(del('platform', 't1')), { beforeStep: journal.beforeStep });
    const [record] = readRecords(journal.file);
    expect(record!.snapshot).toBe('live');
    expect(record!.state).toBeUndefined();
  });
});
