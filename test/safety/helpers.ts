import type { KindDefinition, LiveObject } from '../../src/model/kind.js';
import { isRecord } from '../../src/kinds/common.js';
import { emptyPlan, type Phase, type Plan, type Step } from '../../src/model/plan.js';
import { liveKey, type LiveState } from '../../src/model/state.js';
import type { ManifestDocument } from '../../src/model/document.js';
import { resolveSafetyConfig, type SafetyConfig } from '../../src/safety/config.js';
import type { GateOptions } from '../../src/safety/gate.js';

/** A field of a live object whose kind is forgotten (a journal record's, a snapshot part's), read with a check. */
export const field = (o: LiveObject, name: string): unknown => (isRecord(o.fields) ? o.fields[name] : undefined);

/** A live object; its fields typed as given (a kind's typed hooks take them), else an empty record. */
export function obj(kind: string, org: string, key: string): LiveObject<Record<string, unknown>>;
export function obj<F extends object>(kind: string, org: string, key: string, fields: F, id?: string): LiveObject<F>;
export function obj(
  kind: string,
  org: string,
  key: string,
  fields: object = {},
  id = `${kind}-${key}`,
): LiveObject<object> {
  return { kind, org, key, id, fields };
}

/** Live state with `n` objects of `kind` in `org` (keys k0 … k{n-1}), held under the manifest kind `holder`. */
export function liveWith(entries: { kind: string; org: string; n: number; holder?: string }[]): LiveState {
  const live: LiveState = new Map();
  for (const e of entries) {
    const k = liveKey(e.holder ?? e.kind, e.org);
    const state = live.get(k) ?? { objects: [] };
    for (let i = 0; i < e.n; i++) state.objects.push(obj(e.kind, e.org, `k${i}`));
    live.set(k, state);
  }
  return live;
}

export function changeStep(kind: string, org: string, key: string, phase: Phase, extra: Partial<Step> = {}): Step {
  const action = phase === 'prune' ? 'delete' : phase;
  return {
    id: `${kind}/${org}/${key}#${action}`,
    action,
    phase,
    kind,
    org,
    key,
    wave: 0,
    before: phase === 'create' ? null : { title: key },
    after: phase === 'delete' || phase === 'prune' ? null : { title: `${key}!` },
    dependsOn: [],
    requests: [
      {
        method: action === 'delete' ? 'DELETE' : action === 'update' ? 'PATCH' : 'POST',
        path: `/orgs/${org}/${kind.toLowerCase()}s/${kind}-${key}`,
      },
    ],
    ...extra,
  };
}

/** A plan that changes keys k0 … k{n-1} of `kind` in `org` with the given phase. */
export function planWith(...groups: { kind: string; org: string; n: number; phase: Phase; from?: number }[]): Plan {
  const plan = emptyPlan();
  for (const g of groups) {
    for (let i = g.from ?? 0; i < (g.from ?? 0) + g.n; i++)
      plan.steps.push(changeStep(g.kind, g.org, `k${i}`, g.phase));
  }
  return plan;
}

export function gateOpts(over: Partial<GateOptions> & { safety?: unknown } = {}): GateOptions {
  const config: SafetyConfig = over.safety === undefined ? resolveSafetyConfig({}) : resolveSafetyConfig(over.safety);
  const { safety: _safety, ...rest } = over;
  return { config: over.config ?? config, force: false, desiredCount: 100, ...rest };
}

/** A kind with no behaviour beyond what a test passes in. */
/** A kind that fetches and plans nothing; `extra` supplies the hooks a test needs, typed over record fields. */
export function fakeKind<A = unknown>(
  kind: string,
  extra: Partial<KindDefinition<unknown, LiveObject<Record<string, unknown>>, A>> = {},
): KindDefinition<unknown, LiveObject<Record<string, unknown>>, A> {
  return {
    kind,
    identity: 'by key',
    schema: {},
    depth: 10,
    toDesired: () => [],
    fetch: async () => ({ objects: [] }),
    diff: () => ({ steps: [], unmanaged: [], warnings: [], blocked: [] }),
    ...extra,
  };
}

/** A manifest document with fixed positions, for driving real kinds' toDesired. */
export function manifest<D = Record<string, unknown>>(
  kind: string,
  org: string,
  spec: D,
  prune?: boolean,
): ManifestDocument<D> {
  return {
    file: `${kind.toLowerCase()}.yaml`,
    index: 0,
    apiVersion: 'docops/v1',
    kind,
    metadata: { organization: org },
    ...(prune === undefined ? {} : { prune }),
    spec,
    pos: () => ({ file: `${kind.toLowerCase()}.yaml`, line: 1, column: 1 }),
  };
}
