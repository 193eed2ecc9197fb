/**
 * Which of a daemon plan's steps revert drift the config keeps (`kinds: {K: {drift: report | propose}}`), and the
 * plan without them: each held step becomes a reported change naming its drift setting, and a step that needs a
 * held one is blocked (it cannot run). A step a manifest edit asked for is never held: git changed, docops applies.
 * When the daemon cannot tell edits from drift (its first run, the run after a failed one) every step counts as
 * drift, so nothing the config keeps is reverted unasked.
 */
import { blockWaitingOnDropped } from '../../engine/modes.js';
import type { DriftPolicy, Plan, ReportedChange, Step } from '../../model/plan.js';
import type { ManifestDocument } from '../../model/document.js';

export type KeptPolicy = Exclude<DriftPolicy, 'revert'>;

/** The manifest kind a step comes from: its source's document's, else its own kind. */
export function manifestKindOf(step: Step, documents: readonly ManifestDocument<unknown>[]): string {
  if (!step.source) return step.kind;
  let best: { kind: string; line: number } | undefined;
  for (const d of documents) {
    if (d.file !== step.source.file) continue;
    const at = d.pos([]).line;
    if (at <= step.source.line && (!best || at > best.line)) best = { kind: d.kind, line: at };
  }
  return best?.kind ?? step.kind;
}

/** The steps each kept policy holds: drift (not a manifest edit) of a kind whose drift setting is report or propose. */
export function driftToHold(
  plan: Plan,
  policies: Readonly<Record<string, DriftPolicy>>,
  documents: readonly ManifestDocument<unknown>[],
): Record<KeptPolicy, Step[]> {
  const edits = new Set(plan.manifestChanges ?? []);
  const out: Record<KeptPolicy, Step[]> = { report: [], propose: [] };
  for (const s of plan.steps) {
    if (edits.has(s.id)) continue;
    const policy = policies[manifestKindOf(s, documents)] ?? 'revert';
    if (policy !== 'revert') out[policy].push(s);
  }
  return out;
}

/** The plan with `held` taken out (reported, with their policy) and what waits on them blocked. */
export function holdSteps(plan: Plan, held: ReadonlyMap<string, KeptPolicy>): Plan {
  if (held.size === 0) return plan;
  const out: Plan = {
    ...plan,
    steps: [...plan.steps],
    blocked: [...plan.blocked],
    reported: [...(plan.reported ?? [])],
  };
  const dropped = new Map<string, string>();
  for (const s of plan.steps) {
    const policy = held.get(s.id);
    if (!policy) continue;
    const { requests: _requests, dependsOn: _dependsOn, mode: _mode, ...rest } = s;
    out.reported!.push({ ...rest, drift: policy } satisfies ReportedChange);
    dropped.set(s.id, `${s.kind} "${s.key}", drift the config keeps (${policy})`);
  }
  out.steps = out.steps.filter((s) => !held.has(s.id));
  blockWaitingOnDropped(out, dropped);
  return out;
}
