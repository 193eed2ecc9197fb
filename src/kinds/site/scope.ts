/**
 * What every part of one site's diff shares: the desired entry, the site id (live, or a ref to its create
 * step), its live structure, the space resolver and the result being filled; plus the one way those parts
 * build steps (dependsOn = the refs a step's requests use, source = where the manifest writes the object).
 */
import type { DesiredEntry, DiffContext, DiffResult } from '../../model/kind.js';
import type { Step } from '../../model/plan.js';
import { refsIn } from '../../model/refs.js';
import type { DocPath } from '../../manifests/paths.js';
import { makeStep, plainSource, stepId } from '../common.js';
import { sitePath, type SiteSpec, type SiteStructure } from './model.js';
import type { SpaceResolver } from './space-ref.js';

export interface SiteScope {
  ctx: DiffContext;
  org: string;
  entry: DesiredEntry<SiteSpec>;
  spec: SiteSpec;
  /** The manifest's site title: keys of steps the manifest asks for. */
  title: string;
  /** The live site title: keys of prune steps (the live objects are keyed by it). */
  liveTitle: string;
  /** Site id, or a ref to the step creating the site. */
  siteId: string;
  isNew: boolean;
  live: SiteStructure;
  prune: boolean;
  space: SpaceResolver;
  /** Where this site's steps, warnings and unmanaged objects go (merged into the kind's result unless blocked). */
  result: DiffResult;
  /** What makes the manifest's state of this site unreachable, where it is written (see diff.ts). */
  blocks: { at: DocPath; message: string }[];
}

export const base = (scope: SiteScope): string => sitePath(scope.org, scope.siteId);

/** A step of this site: the id comes from kind, key and suffix; org and source from the scope. */
export type SiteStepInput = Pick<
  Step,
  'kind' | 'key' | 'action' | 'phase' | 'wave' | 'before' | 'after' | 'requests' | 'note'
> & {
  suffix: string;
  /** Where the manifest writes the object (absent for prunes). */
  at?: DocPath;
  deps?: string[];
};

export function siteStep(scope: SiteScope, s: SiteStepInput): Step {
  const id = stepId(s.kind, scope.org, s.key, s.suffix);
  const fromRefs = refsIn(s.requests)
    .map((r) => r.stepId)
    .filter((d) => d !== id);
  const step = makeStep({
    id,
    action: s.action,
    phase: s.phase,
    kind: s.kind,
    org: scope.org,
    key: s.key,
    wave: s.wave,
    before: s.before,
    after: s.after,
    requests: s.requests,
    dependsOn: [...fromRefs, ...(s.deps ?? [])],
    ...(s.note !== undefined ? { note: s.note } : {}),
  });
  if (s.at) step.source = plainSource(scope.entry.doc.pos(s.at));
  return step;
}

export function push(scope: SiteScope, s: SiteStepInput): Step {
  const step = siteStep(scope, s);
  scope.result.steps.push(step);
  return step;
}

export function warn(scope: SiteScope, key: string, message: string): void {
  scope.result.warnings.push({ kind: 'Site', org: scope.org, key, message });
}

/**
 * The plan cannot reach what the manifest writes at `at`: the site is blocked (none of its steps is planned, the
 * run fails), rather than warned about and left looking like "no changes".
 */
export function block(scope: SiteScope, at: DocPath, message: string): void {
  scope.blocks.push({ at, message });
}

/** `file:line:column` of a manifest path, for warnings. */
export function where(scope: SiteScope, at: DocPath): string {
  const p = scope.entry.doc.pos(at);
  return `${p.file}:${p.line}:${p.column}`;
}
