/**
 * Issue 33's `race` habit from docops's side: another actor changes what docops read, between its plan and its
 * apply. Two harnesses:
 *
 * - `raceBetween(before, after, actor)`: "before" applied, "after" planned, then the actor's changes (through the
 *   API with a token of its own: u-grace), then the plan applied. The unit tests of each write that must keep them.
 * - `raceOnce(seed, faults)`: the change world (change-world.ts; here with redirects, visitor sign-in, e-mail domains,
 *   the adaptive schema and the customization changed too) planned and applied once with the sandbox's `race=P`
 *   habit, and every race the sandbox logged judged against the plan: a **clobber** is a write of docops that
 *   changed a raced field or item away from the actor's value although the step that sent it does not change that
 *   field (its `after`) or name that item (a request's path or body), and no planned DELETE took it.
 */
import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type RaceReport, type RunningSandbox } from '@docops/sandbox';
import { applyPlan } from '../../src/engine/apply.js';
import type { ApplyReport } from '../../src/model/apply-report.js';
import type { Plan, RequestSpec } from '../../src/model/plan.js';
import { fastClient, loadDesired, planAndApply, planOnce, plannedDeletePaths, tempDir } from '../helpers/pipeline.js';
import { afterManifests, beforeManifests, doc, edit, startChangeWorld } from './change-world.js';
import { duplicateIdentities } from './every-kind-world.js';

export const ACTOR = { token: 'grace-token', userId: 'u-grace' };

export { edit };

/** A copy of a manifests directory (config.example's by default). */
export function copyManifests(from = 'config.example/manifests'): string {
  const dir = tempDir('race');
  cpSync(from, dir, { recursive: true });
  return dir;
}

/** The API as the other actor: `call(method, path below /v1, body)` answers the parsed body (throws unless 2xx). */
export interface ActorApi {
  call(method: string, path: string, body?: unknown): Promise<unknown>;
}

function actorApi(sandbox: RunningSandbox): ActorApi {
  return {
    async call(method, path, body) {
      const res = await fetch(`${sandbox.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${ACTOR.token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text === '' ? undefined : (JSON.parse(text) as unknown);
    },
  };
}

export interface RaceBetween {
  plan: Plan;
  report: ApplyReport;
  sandbox: RunningSandbox;
  api: ActorApi;
  close(): Promise<void>;
}

/** "before" applied; "after" planned; the actor's changes; the plan applied under `faults` (the caller closes). */
export async function raceBetween(
  before: string,
  after: string,
  actor: (api: ActorApi) => Promise<void>,
  faults?: string,
): Promise<RaceBetween> {
  const sandbox = await startSandbox({ seed: 'demo', actorTokens: [ACTOR] });
  const client = fastClient(sandbox);
  const close = async (): Promise<void> => {
    await client.close();
    await sandbox.close();
  };
  try {
    const first = await planAndApply(client, await loadDesired(before));
    if (first.report.failed.length > 0) throw new Error(`"before" failed: ${JSON.stringify(first.report.failed)}`);
    const plan = await planOnce(client, await loadDesired(after));
    const api = actorApi(sandbox);
    await actor(api);
    if (faults !== undefined) sandbox.setFaults(faults);
    const report = await applyPlan(client, plan, { concurrency: 8, sleep: async () => {} });
    sandbox.setFaults(undefined);
    return { plan, report, sandbox, api, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The change world's "before", with a second e-mail domain, redirects and visitor sign-in on the help center. */
export function raceBefore(): string {
  const dir = beforeManifests();
  edit(dir, 'organization.yaml', 'emailDomains: [acme.test]', 'emailDomains: [acme.test, old.acme.test]');
  edit(
    dir,
    'site.yaml',
    '    favicon: { emoji: "📘" }\n',
    '    favicon: { emoji: "📘" }\n  redirects:\n    - { source: /old-start, destination: { section: getting-started } }\n' +
      '  publishingAuth: { fallbackURL: "https://acme.test/sign-in-failed" }\n',
  );
  return dir;
}

/** The change world's "after", which also changes each whole value the API takes only whole. */
export function raceAfter(before: string): string {
  const dir = afterManifests(before);
  edit(
    dir,
    'organization.yaml',
    'emailDomains: [acme.test, old.acme.test]',
    'emailDomains: [acme.test, new.acme.test]',
  );
  edit(
    dir,
    'site.yaml',
    '{ source: /old-start, destination: { section: getting-started } }',
    '{ source: /old-start, destination: { section: api } }',
  );
  edit(dir, 'site.yaml', 'https://acme.test/sign-in-failed"', 'https://acme.test/sign-in-failed-again"');
  edit(dir, 'site.yaml', 'primaryColor: { light: "#FF6600" }', 'primaryColor: { light: "#0066FF" }');
  edit(
    dir,
    'site.yaml',
    '      staff: { type: boolean, description: Visitor is an Acme employee }\n',
    '      staff: { type: boolean, description: Visitor works at Acme }\n      partner: { type: boolean, description: Visitor is a partner }\n',
  );
  appendFileSync(join(dir, 'translations.yaml'), doc('Translation', '  title: Portuguese docs\n'));
  return dir;
}

export interface RaceOutcome {
  seed: number;
  steps: number;
  /** Races the sandbox landed (the actor's write done), and how many of them docops's writes changed back. */
  landed: number;
  undone: number;
  clobbers: string[];
  duplicates: string[];
  unplannedDeletes: string[];
  failed: string[];
  faults: number;
}

/** Plan paths show refs as `<<ref:…>>`: any one segment there. */
function samePath(planPath: string, logPath: string): boolean {
  const want = `/v1${planPath}`.split('/');
  const have = logPath.split('/');
  return want.length === have.length && want.every((w, i) => w === have[i] || /^<<ref:.*>>$/.test(w));
}

function has(body: unknown, dotted: string): boolean {
  let v = body;
  for (const k of dotted.split('.')) {
    if (typeof v !== 'object' || v === null || !(k in v)) return false;
    v = (v as Record<string, unknown>)[k];
  }
  return true;
}

/** `dotted` (a.b.c) is a path somewhere in `value`: at its root or below any of its members. */
function mentions(value: unknown, dotted: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return has(value, dotted) || Object.values(value).some((v) => mentions(v, dotted));
}

/**
 * The races docops's writes changed back although the plan did not ask for it: a field the step of the write does
 * not change (its `after`), an item the step's requests do not name (by path or in a body), and no planned DELETE.
 */
export function clobbersOf(plan: Plan, races: RaceReport): string[] {
  const deletes = plannedDeletePaths([plan]);
  return races.undone
    .filter((u) => {
      if (u.method === 'DELETE' && deletes.has(u.path)) return false;
      const steps = plan.steps.filter((s) => s.requests.some((r) => r.method === u.method && samePath(r.path, u.path)));
      if (u.field !== undefined) return !steps.some((s) => mentions(s.after, u.field!));
      const key = races.races.find((r) => r.n === u.race)?.key ?? '';
      const requests: RequestSpec[] = steps.flatMap((s) => s.requests);
      return !requests.some((r) => r.path.endsWith(`/${key}`) || JSON.stringify(r.body ?? null).includes(`"${key}"`));
    })
    .map(
      (u) =>
        `race ${u.race}: ${u.method} ${u.path} changed ${u.field ?? u.item} from ${JSON.stringify(u.value)} to ${JSON.stringify(u.now)}`,
    );
}

/** Plan "after" and apply it once under `faults` with `seed` and the race habit; judge every race. */
export async function raceOnce(
  seed: number,
  faults: string,
  dirs: { before: string; after: string },
): Promise<RaceOutcome> {
  const w = await startChangeWorld({}, dirs);
  try {
    w.sandbox.setFaults(`${faults},seed=${seed}`);
    const plan = await planOnce(w.client, w.desired, w.options);
    const report = await applyPlan(w.client, plan, { concurrency: 8, sleep: async () => {} });
    w.sandbox.setFaults(undefined);
    const stats = w.sandbox.stats();
    const races = w.sandbox.races();
    const allowed = plannedDeletePaths([plan]);
    return {
      seed,
      steps: plan.steps.length,
      landed: races.races.filter((r) => r.status < 300).length,
      undone: races.undone.length,
      clobbers: clobbersOf(plan, races),
      duplicates: duplicateIdentities(w.sandbox.store),
      unplannedDeletes: stats.requests
        .filter((r) => r.method === 'DELETE' && !allowed.has(r.path))
        .map((r) => `${r.path} (${r.status})`),
      failed: report.failed.map((f) => `${f.stepId}: ${f.message}`),
      faults: stats.requests.filter((r) => r.fault !== undefined).length,
    };
  } finally {
    await w.close();
  }
}
