/**
 * "The run" and "Adding a run feature" (docs/dev/architecture.md) hold by this test: the table of stages is the
 * stages the hosts really build (names and phases), every stage declares its input and the runner holds it to it
 * and to the order of phases, and a feature stays in its stage: the run and the reconciler name none (docs health,
 * the guide's worked example, is a stage of the daemon's list and a field of its record).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/cli/command.js';
import { cliPlanningStages } from '../../src/cli/plan-run.js';
import { cliWritingStages } from '../../src/cli/safety.js';
import { createLogger } from '../../src/log.js';
import { KINDS } from '../../src/kinds/index.js';
import { createDaemonMetrics } from '../../src/daemon/metrics.js';
import { DaemonStages, type DaemonRunParts } from '../../src/daemon/run-stages.js';
import type { DaemonRun } from '../../src/daemon/run.js';
import { DEFAULT_SAFETY } from '../../src/safety/index.js';
import { PHASES, runStages, type PipelineRun, type Stage, type StageRecord } from '../../src/pipeline/index.js';

const guide = readFileSync('docs/dev/architecture.md', 'utf8');
const section = (title: string): string => guide.split(/^## /m).find((s) => s.startsWith(`${title}\n`)) ?? '';
const never = (): never => {
  throw new Error('not called while the list is built');
};

const sink = { write: () => true };
const logger = createLogger({ stream: sink, env: {}, level: 'silent' });
const ctx: CommandContext = {
  io: { stdout: sink, stderr: sink, env: {} },
  logger,
  global: { sandbox: false, concurrency: 1, prune: [], invite: false, logLevel: 'silent', help: false },
  values: {},
  onCleanup: () => {},
  addSecret: () => {},
};
const progress = { tick: () => {}, phase: () => {}, done: () => {} };
const daemonRun: DaemonRun = {
  kinds: KINDS,
  mode: 'apply',
  id: 1,
  reasons: ['start'],
  log: logger,
  api: { ok: true, status: undefined },
  recordFields: {},
};

/** The daemon's list with every feature on (`informer` decides between the informer and the read ahead). */
function daemonList(informer: boolean): Stage<DaemonRun>[] {
  const parts: DaemonRunParts = {
    metrics: createDaemonMetrics({ defaultMetrics: false }),
    planOptions: {},
    safety: DEFAULT_SAFETY,
    journalDir: '/nonexistent',
    concurrency: 1,
    signal: new AbortController().signal,
    load: never,
    scoping: { decide: never, peek: never, reached: never },
    whoami: never,
    readAhead: never,
    ...(informer ? { informer: { read: never, wrote: never, takePending: never } } : {}),
    drift: { settle: never, quiet: never },
    policy: never,
  };
  return new DaemonStages({ healthEveryMs: 0 }).for(parts, daemonRun);
}

const cli = cliPlanningStages(ctx, progress);
const hosts: Record<string, readonly Stage<never>[]> = {
  'docops plan': [...cli.reading, ...cli.annotate],
  'docops apply (writing)': cliWritingStages(
    ctx,
    { config: DEFAULT_SAFETY, journalDir: '/nonexistent', force: false },
    { baseUrl: '', request: never, get: never, paginate: never, listAll: never, close: never },
  ),
  'the daemon (informer)': daemonList(true),
  'the daemon (read ahead)': daemonList(false),
};

/** `| phase | \`name\` | …` rows of "The run". */
const table = [...section('The run').matchAll(/^\| (\w+) \| `([\w-]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);

describe('"The run" is the stages the hosts build', () => {
  it('each host lists its stages in the order of phases, each named in the table with its phase', () => {
    const built = new Set<string>();
    for (const [host, stages] of Object.entries(hosts)) {
      const phases = stages.map((s) => PHASES.indexOf(s.phase));
      expect(phases, `${host}: phases in order`).toEqual([...phases].sort((a, b) => a - b));
      for (const s of stages) built.add(`${s.phase} ${s.name}`);
    }
    expect([...built].sort()).toEqual([...new Set(table)].sort());
  });

  it('the opening names the phases in their order', () => {
    expect(section('The run').replace(/\s+/g, ' ')).toContain(`**${PHASES.join(' → ')}**`);
  });

  it('every stage declares what it reads and writes', () => {
    for (const stages of Object.values(hosts))
      for (const s of stages) {
        expect(s.name, 'a name').toMatch(/^[a-z-]+$/);
        expect(Array.isArray(s.reads) && Array.isArray(s.writes), `${s.name}: input and output`).toBe(true);
      }
  });
});

describe('the runner', () => {
  const stage = (name: string, phase: Stage['phase'], reads: Stage['reads'] = []): Stage<PipelineRun> => ({
    name,
    phase,
    reads,
    writes: [],
    run: () => {},
  });
  const run = (): PipelineRun => ({ kinds: [], mode: 'plan' });

  it('refuses a list out of phase order, before any stage runs', async () => {
    let ran = false;
    const first: Stage<PipelineRun> = { ...stage('first', 'diff'), run: () => void (ran = true) };
    await expect(runStages(run(), [first, stage('late-load', 'load')])).rejects.toThrow(/late-load \(load\)/);
    expect(ran).toBe(false);
  });

  it('refuses a stage whose input no earlier stage set', async () => {
    await expect(runStages(run(), [stage('needs-live', 'diff', ['live'])])).rejects.toThrow(/needs-live.*live/);
  });

  it('records each stage: done, skipped, or failed (and the error goes on)', async () => {
    const failing: Stage<PipelineRun> = {
      ...stage('boom', 'gate'),
      run: () => {
        throw new Error('refused');
      },
    };
    const records: StageRecord[] = [];
    const skipped = { ...stage('quiet', 'annotate'), skip: () => true };
    await expect(runStages(run(), [stage('a', 'load'), skipped, failing], records)).rejects.toThrow('refused');
    expect(records.map((r) => `${r.name} ${r.outcome}`)).toEqual(['a done', 'quiet skipped', 'boom failed']);
  });
});

describe('"Adding a run feature"', () => {
  const text = section('Adding a run feature');

  it('names each file it asks to touch', () => {
    for (const file of [
      'src/engine/run.ts',
      'src/pipeline/stages.ts',
      'src/daemon/run-stages.ts',
      'src/daemon/run-record.ts',
      'test/pipeline/run-feature.test.ts',
    ])
      expect(text, file).toContain(file);
  });

  it('docs health, its worked example, is a stage after the apply, in the daemon list, writing to the record', () => {
    const health = daemonList(true).find((s) => s.name === 'health');
    expect(health?.phase).toBe('after');
    expect(health?.writes).toEqual(['recordFields']);
    expect(text).toContain('`healthStage`');
  });

  it('the run names no feature; the reconciler only hands over the parts it started', () => {
    const code = (file: string): string =>
      readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
    const run = code('src/daemon/run.ts');
    for (const feature of [/health/i, /attribut/i, /informer/i, /drift/i, /approval/i, /policy/i])
      expect(run, `src/daemon/run.ts: ${String(feature)}`).not.toMatch(feature);
    const reconciler = code('src/daemon/reconciler.ts');
    for (const feature of [/health/i, /attribut/i]) expect(reconciler, String(feature)).not.toMatch(feature);
  });
});
