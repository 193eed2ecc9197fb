/**
 * What an apply left half-done: objects a create step made whose own follow-up requests, or whose dependent
 * steps, did not complete (e.g. a site created, its PATCH refused, its sections never created). Said in one
 * sentence per object, for the apply result (text, markdown, JSON) and the daemon's log — not only as a step id
 * in a failure list. Pure: computed from the plan and what apply recorded.
 */
import type { IncompleteCreate } from '../model/apply-report.js';
import type { Step } from '../model/plan.js';

/** What apply knows about a create step that made its object and then failed. */
export interface PartialStep {
  id: string;
  /** Index of the step request that failed, with its method, resolved path and message. */
  failedAt: number;
  request: string;
  message: string;
}

export function incompleteCreates(
  steps: readonly Step[],
  outputs: Readonly<Record<string, Record<string, string>>>,
  partial: ReadonlyMap<string, PartialStep>,
  failed: ReadonlySet<string>,
  skipped: ReadonlySet<string>,
): IncompleteCreate[] {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const dependents = new Map<string, string[]>();
  for (const s of steps) for (const d of s.dependsOn) dependents.set(d, [...(dependents.get(d) ?? []), s.id]);
  const out: IncompleteCreate[] = [];
  for (const s of steps) {
    const id = outputs[s.id]?.['id'];
    if (s.action !== 'create' || id === undefined) continue;
    const broken = partial.get(s.id);
    const undone = transitive(s.id, dependents).filter((d) => failed.has(d) || skipped.has(d));
    if (!broken && undone.length === 0) continue;
    const item: Omit<IncompleteCreate, 'summary'> = {
      stepId: s.id,
      kind: s.kind,
      key: s.key,
      id,
      notSet: broken ? fieldsOf(s, broken.failedAt) : [],
      dependents: undone.map((d) => {
        const dep = byId.get(d)!;
        return {
          stepId: d,
          kind: dep.kind,
          action: dep.action,
          outcome: failed.has(d) ? ('failed' as const) : ('not attempted' as const),
        };
      }),
    };
    const full: IncompleteCreate = {
      ...item,
      ...(broken ? { failedRequest: { request: broken.request, message: broken.message } } : {}),
      summary: '',
    };
    full.summary = describeIncomplete(full);
    out.push(full);
  }
  return out;
}

function transitive(start: string, dependents: ReadonlyMap<string, string[]>): string[] {
  const seen = new Set<string>();
  const queue = [...(dependents.get(start) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(dependents.get(next) ?? []));
  }
  return [...seen];
}

/** Top-level body keys of the step's requests from `from` on. */
function fieldsOf(step: Step, from: number): string[] {
  const keys = new Set<string>();
  for (const r of step.requests.slice(from)) {
    if (r.body && typeof r.body === 'object' && !Array.isArray(r.body))
      for (const k of Object.keys(r.body)) keys.add(k);
  }
  return [...keys];
}

/**
 * One sentence, e.g. "Site Acme Help Center was created (id site-12), but its PATCH /orgs/o/sites/site-12 failed:
 * …; left behind: the Site without basename, proxy set; not done because of it: 3 SiteSection create (not
 * attempted). The next plan completes it, or you can delete it."
 */
export function describeIncomplete(x: Omit<IncompleteCreate, 'summary'>): string {
  const head = `${x.kind} ${x.key} was created (id ${x.id})`;
  const deps = x.dependents.length > 0 ? countDependents(x.dependents) : undefined;
  let text: string;
  if (x.failedRequest) {
    const left =
      x.notSet.length > 0 ? `the ${x.kind} without ${x.notSet.join(', ')} set` : `the ${x.kind} as first created`;
    // "PATCH /x failed with 400: why" reads once, not as "its PATCH /x failed: PATCH /x failed with 400: why".
    const { request, message } = x.failedRequest;
    const how = message.startsWith(`${request} failed`) ? message.slice(`${request} failed`.length) : `: ${message}`;
    text = `${head}, but its ${request} failed${how}; left behind: ${left}${deps ? `; not done because of it: ${deps}` : ''}`;
  } else {
    text = `${head}, but steps that depend on it did not complete: ${deps ?? 'none'}; left behind: the ${x.kind} without them`;
  }
  return `${text}. The next plan completes it, or you can delete it.`;
}

/** `Team/o/x#members (not attempted)` for a lone step of its sort, `3 SiteSection create (not attempted)` for several. */
function countDependents(ds: IncompleteCreate['dependents']): string {
  const groups = new Map<string, IncompleteCreate['dependents']>();
  for (const d of ds) {
    const label = `${d.kind} ${d.action} (${d.outcome})`;
    groups.set(label, [...(groups.get(label) ?? []), d]);
  }
  return [...groups]
    .map(([label, g]) => (g.length === 1 ? `${g[0]!.stepId} (${g[0]!.outcome})` : `${g.length} ${label}`))
    .join(', ');
}
