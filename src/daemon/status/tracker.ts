/**
 * Keeps what the status page shows: a view of each recent run, the last plan with what became of its steps, the
 * last load problems and the manifests' revision. Fed by the daemon at the end of every run (RunContext.observe);
 * holds one plan at a time, so memory stays bounded whatever the history length.
 */
import { manifestRelative } from '../run-view.js';
import type { ApplyReport } from '../../model/apply-report.js';
import { originOf, type Plan, type Step } from '../../model/plan.js';
import { changeOf, stepSentence } from '../../render/attribution.js';
import { fieldChanges, formatStepField, reportedStep } from '../../render/values.js';
import type { RunRecord } from '../run.js';
import type {
  ApprovalStatus,
  DriftStep,
  DriftView,
  InformerView,
  LoadProblem,
  RunView,
  SpaceHealthView,
  StatusData,
  StepOutcome,
} from './model.js';
import type { ProposalView } from '../drift/propose.js';
import { DRIFT_REASON } from '../../model/plan.js';
import { manifestsRevision, type Revision } from './revision.js';

export const RUN_HISTORY = 50;
const MAX_UNMANAGED = 500;
const MAX_REPORTED = 500;
const MAX_PROBLEMS = 200;
const VALUE_MAX = 300;

export interface DaemonFacts {
  mode: 'apply' | 'plan';
  manifestsDir: string;
  schedule?: string;
  /** Running on the in-process demo sandbox. */
  demo?: boolean;
  /** `single` unless leader election says otherwise. */
  role(): string;
  readiness(): { ready: boolean; reason?: string };
  /** Approvals, when a policy is configured. */
  approval?(): ApprovalStatus | null;
  proposal?(): ProposalView | null;
  /** The informer's state, when it is on. */
  informer?(): InformerView | undefined;
}

export class StatusTracker {
  private readonly runs: RunView[] = [];
  private drift: DriftView | null = null;
  /** Space id → what the last run that read it found (a full run's read replaces them all). */
  private health = new Map<string, SpaceHealthView>();
  private problems: LoadProblem[] = [];
  /** The sentence of a load that failed without a position. */
  private loadError: string | null = null;
  private loadOk: boolean | null = null;
  private revision: Promise<Revision | null> | undefined;

  constructor(private readonly facts: DaemonFacts) {}

  /** A run ended: its record, the plan it computed (if any) and the apply report (apply mode with steps). */
  observe(r: RunRecord, plan: Plan | undefined, report: ApplyReport | undefined): void {
    this.runs.push(runView(r));
    if (this.runs.length > RUN_HISTORY) this.runs.shift();
    if (r.result === 'invalid_manifests') {
      this.loadOk = false;
      this.problems = (r.issues ?? [])
        .slice(0, MAX_PROBLEMS)
        .map((i) => ({ file: this.rel(i.file), line: i.line, column: i.column, message: i.message }));
      // No position to show: the error's own sentence (what the CLI says), not a made-up place.
      this.loadError = r.issues ? null : (r.error ?? `the manifests could not be read (${r.errorType ?? 'error'})`);
    } else {
      this.loadOk = true;
      this.problems = [];
      this.loadError = null;
    }
    if (plan) this.drift = this.driftView(r, plan, report);
    if (r.health) {
      if (r.scope !== 'scoped') this.health.clear();
      for (const h of r.health) this.health.set(h.id, { ...h, run: r.id, at: r.startedAt });
    }
    this.revision = manifestsRevision(this.facts.manifestsDir);
  }

  async status(): Promise<StatusData> {
    const ready = this.facts.readiness();
    return {
      generatedAt: new Date().toISOString(),
      daemon: {
        mode: this.facts.mode,
        role: this.facts.role(),
        schedule: this.facts.schedule ?? null,
        ready: ready.ready,
        reason: ready.reason ?? null,
        demo: this.facts.demo === true,
      },
      manifests: {
        dir: this.facts.manifestsDir,
        revision: (await this.revision) ?? null,
        ok: this.loadOk,
        problems: this.problems,
        error: this.loadError,
      },
      drift: this.drift,
      approval: this.facts.approval?.() ?? null,
      proposal: this.facts.proposal?.() ?? null,
      informer: this.facts.informer?.() ?? null,
      health: [...this.health.values()].sort(
        (a, b) => b.broken - a.broken || a.org.localeCompare(b.org) || a.space.localeCompare(b.space),
      ),
      runs: [...this.runs].reverse(),
    };
  }

  /** One run by id (undefined when unknown or no longer kept); with the drift when it is the last plan's run. */
  run(id: number): (RunView & { drift: DriftView | null }) | undefined {
    const r = this.runs.find((x) => x.id === id);
    return r ? { ...r, drift: this.drift?.run === id ? this.drift : null } : undefined;
  }

  private stepView(plan: Plan, s: Step, [o, detail]: Outcome): DriftStep {
    const origin = originOf(plan, s);
    // A manifest edit has no live author: the audit event on its object is someone else's change.
    const by = origin === 'manifests' ? undefined : changeOf(plan, s);
    return {
      id: s.id,
      kind: s.kind,
      org: s.org,
      key: s.key,
      action: s.action,
      mode: s.mode ?? 'authoritative',
      prune: s.phase === 'prune',
      note: s.note ?? null,
      changes: stepChanges(s),
      origin,
      sentence: stepSentence(plan, s),
      changedBy: by ? { actor: by.actor, at: by.at, action: by.action } : null,
      outcome: o,
      outcomeDetail: detail,
      source: this.place(s.source),
    };
  }

  private rel(file: string): string {
    return manifestRelative(this.facts.manifestsDir, file);
  }

  /** `file:line:column`, the file relative to the manifests directory. */
  private place(source: { file: string; line: number; column: number } | undefined): string | null {
    return source ? `${this.rel(source.file)}:${source.line}:${source.column}` : null;
  }

  private driftView(r: RunRecord, plan: Plan, report: ApplyReport | undefined): DriftView {
    const outcome = outcomeOf(r, report);
    const view = (s: Step, o: Outcome): DriftStep => this.stepView(plan, s, o);
    const byKind = new Map<string, DriftStep[]>();
    for (const s of plan.steps) {
      const step = view(s, outcome(s));
      const list = byKind.get(s.kind);
      if (list) list.push(step);
      else byKind.set(s.kind, [step]);
    }
    const reported = plan.reported ?? [];
    return {
      run: r.id,
      at: r.startedAt,
      mode: r.mode,
      scopedTo: r.scope === 'scoped' ? (r.scopes?.reconciled ?? []) : null,
      total: plan.steps.length,
      byKind: [...byKind].map(([kind, steps]) => ({ kind, steps })),
      attributionUnavailable: plan.attribution?.unavailable ?? null,
      blocked: plan.blocked.map((b) => ({
        kind: b.kind,
        org: b.org,
        key: b.key,
        message: b.message,
        source: this.place(b.source),
      })),
      reported: {
        total: reported.length,
        items: reported
          .slice(0, MAX_REPORTED)
          .map((x) => view(reportedStep(x), ['reported', x.drift ? DRIFT_REASON[x.drift] : null])),
      },
      owned: (plan.owned ?? []).map((o) => ({
        kind: o.kind,
        org: o.org,
        key: o.key,
        id: o.id ?? null,
        what: o.what,
        owner: o.owner,
      })),
      unmanaged: {
        total: plan.unmanaged.length,
        items: plan.unmanaged
          .slice(0, MAX_UNMANAGED)
          .map((u) => ({ kind: u.kind, org: u.org, key: u.key, id: u.id ?? null, mode: u.mode ?? null })),
      },
    };
  }
}

type Outcome = [StepOutcome, string | null];

/** What became of a step of the run's plan (and why, when it was not applied). */
function outcomeOf(r: RunRecord, report: ApplyReport | undefined): (s: Step) => Outcome {
  const failed = new Map(report?.failed.map((f) => [f.stepId, f.message]) ?? []);
  const skipped = report?.skipReasons ?? {};
  const applied = new Set(report?.applied ?? []);
  return (s) => {
    if (r.result === 'refused') return ['refused', null];
    if (applied.has(s.id)) return ['applied', null];
    if (failed.has(s.id)) return ['failed', failed.get(s.id)!];
    if (s.id in skipped) return ['skipped', skipped[s.id]!];
    return report
      ? ['not applied', null]
      : r.mode === 'plan'
        ? ['pending', null]
        : ['not applied', r.errorType ?? null];
  };
}

/** Field by field: what is live and what the manifests say (a create shows its fields, a delete nothing). */
function stepChanges(s: Step): { field: string; live: string; desired: string }[] {
  if (s.action === 'create')
    return Object.entries(s.after ?? {}).map(([f, v]) => ({
      field: f,
      live: '(absent)',
      desired: formatStepField(s, f, v, VALUE_MAX),
    }));
  if (s.action === 'delete') return [];
  return fieldChanges(s.before, s.after).map((c) => ({
    field: c.field,
    live: c.before === undefined ? '(unset)' : formatStepField(s, c.field, c.before, VALUE_MAX),
    desired: c.after === undefined ? '(removed)' : formatStepField(s, c.field, c.after, VALUE_MAX),
  }));
}

function runView(r: RunRecord): RunView {
  return {
    id: r.id,
    startedAt: r.startedAt,
    reasons: [...r.reasons],
    durationMs: r.durationMs,
    result: r.result,
    mode: r.mode,
    documents: r.documents ?? null,
    planned: r.planned ?? null,
    applied: r.applied ?? null,
    failed: r.failed ?? null,
    skipped: r.skipped ?? null,
    problems: r.issues ? r.issues.length : null,
    refusedBecause: r.violations ?? [],
    errorType: r.errorType ?? null,
    // Invalid manifests list their problems under Manifests; a load without positions and other errors are one message.
    error: (r.result === 'invalid_manifests' && r.issues) || r.error === undefined ? null : r.error,
    apiStatus: r.apiStatus ?? null,
    interrupted: r.interrupted === true,
  };
}
