/**
 * Full or scoped: the tracker's decisions, the preloaded manifests, and coalescing in a running daemon
 * (changes queued during a run merge into one scoped follow-up; a schedule tick among them makes it full).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { desiredState } from '../../src/model/state.js';
import type { DesiredEntry } from '../../src/model/kind.js';
import { ScopeTracker } from '../../src/daemon/changes.js';
import { createPreloader, directoryFingerprint } from '../../src/daemon/preload.js';
import type { RunRecord } from '../../src/daemon/run.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import type { ManifestDocument } from '../../src/model/document.js';
import { startTestDaemon, type TestDaemon } from './helpers.js';

const membersDoc = (role: string, org = 'o1'): ManifestDocument => ({
  file: 'members.yaml',
  index: 0,
  apiVersion: 'docops/v1',
  kind: 'Members',
  metadata: { organization: org },
  spec: { members: [{ email: 'a@x', role }] },
  pos: () => ({ file: 'members.yaml', line: 1, column: 1 }),
});

function state(...docs: ManifestDocument[]): ReturnType<typeof desiredState> {
  const map = new Map<string, DesiredEntry[]>(KINDS.map((k) => [k.kind, []]));
  for (const d of docs)
    map
      .get(d.kind)!
      .push({ kind: d.kind, org: d.metadata.organization, key: 'a@x', spec: {}, source: d.pos([]), doc: d });
  return desiredState(map, docs);
}

describe('ScopeTracker', () => {
  it('the first run is full; after a success a file change is scoped to what changed; a failure makes the next one full', () => {
    const t = new ScopeTracker(KINDS, 'config', 'apply');
    expect(t.decide(1, ['watch'], state(membersDoc('read')))).toMatchObject({
      type: 'full',
      why: expect.stringMatching(/no successful run/),
    });
    t.settle(1, true);
    expect(t.decide(2, ['watch'], state(membersDoc('edit')))).toEqual({
      type: 'scoped',
      changed: ['Members\u0000o1'],
      scopes: ['Members\u0000o1'],
    });
    t.settle(2, false);
    expect(t.decide(3, ['watch'], state(membersDoc('edit')))).toMatchObject({ type: 'full' });
    t.settle(3, true);
    // Changes since the last success, whatever the number of triggers that led here: one comparison.
    expect(t.decide(4, ['watch'], state(membersDoc('read'), membersDoc('read', 'o2')))).toMatchObject({
      type: 'scoped',
      changed: ['Members\u0000o1', 'Members\u0000o2'],
    });
  });

  it('any reason but a file change is full (scoped + full = full), and plan mode is always full', () => {
    const t = new ScopeTracker(KINDS, 'config', 'apply');
    t.decide(1, ['start'], state(membersDoc('read')));
    t.settle(1, true);
    expect(t.decide(2, ['watch', 'schedule'], state(membersDoc('edit')))).toEqual({
      type: 'full',
      why: 'triggered by schedule',
    });
    const p = new ScopeTracker(KINDS, 'config', 'plan');
    p.decide(1, ['start'], state(membersDoc('read')));
    p.settle(1, true);
    expect(p.decide(2, ['watch'], state(membersDoc('edit')))).toMatchObject({
      type: 'full',
      why: expect.stringMatching(/plan mode/),
    });
  });

  it('a settle for another run than the one that decided drops the baseline', () => {
    const t = new ScopeTracker(KINDS, 'config', 'apply');
    t.decide(1, ['start'], state(membersDoc('read')));
    t.settle(2, true);
    expect(t.hasBaseline).toBe(false);
  });
});

describe('createPreloader', () => {
  it('a run takes the load a file event started; an event during that load makes it stale and starts another', async () => {
    const releases: (() => void)[] = [];
    let n = 0;
    const p = createPreloader(() => {
      const i = ++n;
      return new Promise<number>((res) => releases.push(() => res(i)));
    }, 10);
    p.changed();
    expect(p.started).toBe(0); // not before the quiet time (a write within chokidar's 50 ms has no event)
    await vi.waitFor(() => expect(p.started).toBe(1));
    p.changed(); // load 1 is stale now; another starts when it ends
    releases[0]!();
    await vi.waitFor(() => expect(p.started).toBe(2));
    const taken = p.take(); // load 2 is current
    releases[1]!();
    expect(await taken).toBe(2);
    // Taken once: the next run loads itself.
    const fresh = p.take();
    expect(p.started).toBe(3);
    releases[2]!();
    expect(await fresh).toBe(3);
  });
});

describe('createPreloader with a fingerprint of the files', () => {
  it('a run after a write whose file event has not come yet loads the files again instead of taking the older load', async () => {
    let print = 'v1';
    let n = 0;
    const p = createPreloader(
      async () => ++n,
      1,
      async () => print,
    );
    p.changed();
    await vi.waitFor(() => expect(p.started).toBe(1));
    print = 'v2'; // a write: its file event is still on the way (no p.changed())
    expect(await p.take()).toBe(2);
    expect(p.started).toBe(2);
  });

  it('takes the load when the files are as they were when it started', async () => {
    let n = 0;
    const p = createPreloader(
      async () => ++n,
      1,
      async () => 'same',
    );
    p.changed();
    await vi.waitFor(() => expect(p.started).toBe(1));
    expect(await p.take()).toBe(1);
    expect(p.started).toBe(1);
  });

  it('directoryFingerprint changes with a file written in place, added or removed, and not with a hidden directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docops-print-'));
    try {
      writeFileSync(join(dir, 'a.yaml'), 'x: 1\n');
      const first = await directoryFingerprint(dir);
      writeFileSync(join(dir, 'a.yaml'), 'x: 2\n'); // same size: the modification time tells
      utimesSync(join(dir, 'a.yaml'), new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
      const second = await directoryFingerprint(dir);
      expect(second).not.toBe(first);
      mkdirSync(join(dir, '.git'));
      writeFileSync(join(dir, '.git', 'HEAD'), 'ref');
      expect(await directoryFingerprint(dir)).toBe(second);
      writeFileSync(join(dir, 'b.yaml'), 'y: 1\n');
      const third = await directoryFingerprint(dir);
      expect(third).not.toBe(second);
      rmSync(join(dir, 'b.yaml'));
      expect(await directoryFingerprint(dir)).toBe(second);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const EXAMPLE = join(import.meta.dirname, '../../config.example/manifests');
const FILES = ['members.yaml', 'organization.yaml', 'site.yaml', 'spaces.yaml', 'teams.yaml', 'translations.yaml'];
const example = (name: string): string => readFileSync(join(EXAMPLE, name), 'utf8');

describe('coalescing in the daemon', () => {
  let current: TestDaemon | undefined;
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });

  /** A daemon whose loads, once read, wait while held (the preloads of file events too): a run held so read the files before. */
  async function heldDaemon() {
    const gate = { held: undefined as Promise<void> | undefined, release: () => {}, reached: () => {} };
    const t = (current = await startTestDaemon({
      files: Object.fromEntries(FILES.map((f) => [f, example(f)])),
      config: { debounceMs: 50, schedule: '0 0 * * *' },
      deps: {
        loadManifests: async (dir, kinds, opts) => {
          const loaded = await loadManifests(dir, kinds, opts);
          gate.reached();
          await gate.held;
          return loaded;
        },
      },
    }));
    /** Hold the loads; resolves once one has read the files and waits. */
    const hold = (): Promise<void> => {
      gate.held = new Promise((r) => (gate.release = () => ((gate.held = undefined), r())));
      return new Promise((r) => (gate.reached = r));
    };
    return { t, hold, release: () => gate.release() };
  }

  const isFollowUp = (r: RunRecord): boolean => r.reasons.includes('watch');

  it('changes of two scopes queued during a run are one scoped follow-up covering both', async () => {
    const { t, hold, release } = await heldDaemon();
    const read = hold();
    const first = t.daemon.trigger('http');
    const followUp = t.nextRun(isFollowUp);
    await read; // the first run has read the files
    t.write(
      'members.yaml',
      example('members.yaml').replace('bob@acme.test, role: edit', 'bob@acme.test, role: review'),
    );
    t.write('translations.yaml', example('translations.yaml').replace(/title: (.+)/, 'title: $1 (renamed)'));
    await vi.waitFor(() => expect(t.daemon.busy).toEqual({ running: true, pending: true }), { timeout: 10_000 });
    release();
    expect(await first).toMatchObject({ scope: 'full' });
    expect(await followUp).toMatchObject({
      result: 'success',
      scope: 'scoped',
      scopes: { changed: ['Members/org-demo', 'Translation/org-demo'] },
    });
  });

  it('a schedule tick queued with a file change makes the follow-up full', async () => {
    const { t, hold, release } = await heldDaemon();
    const read = hold();
    const first = t.daemon.trigger('http');
    const followUp = t.nextRun(isFollowUp);
    await read; // the first run has read the files
    t.write(
      'members.yaml',
      example('members.yaml').replace('bob@acme.test, role: edit', 'bob@acme.test, role: review'),
    );
    await vi.waitFor(() => expect(t.daemon.busy.pending).toBe(true), { timeout: 10_000 });
    t.scheduler.tick();
    release();
    await first;
    expect(await followUp).toMatchObject({ reasons: ['watch', 'schedule'], scope: 'full' });
  });
});
