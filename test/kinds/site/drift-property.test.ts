/**
 * The class behind issue 12's site cases, as a property against the sandbox: from any site structure A (random
 * sections, groups, site spaces with and without written paths and conditions, or root spaces), to any other
 * structure B, or back to A after random live edits (spaces swapped or re-pointed, paths swapped, site spaces
 * moved or added, section paths and group titles swapped), ONE apply either reaches the manifest (nothing fails,
 * the next plan is empty and warns of nothing) or the site is blocked for a reason no request sequence gets
 * around. It never ends in failed requests, a second apply, or a warning with no step. Seeds are fixed, so a
 * failure names a reproducible case.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import type { Plan } from '../../../src/model/plan.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { KINDS } from '../../../src/kinds/index.js';
import { loadManifests } from '../../../src/manifests/index.js';
import { sandboxPerTest, type SandboxRun } from '../sandbox-per-test.js';
import { siteYaml } from './swap-harness.js';

const start = sandboxPerTest('site-drift');

/** A sandbox whose spaces include two titled "Guide" (their site spaces derive one slug): the pool names them by id. */
async function startWithPool(): Promise<{ r: SandboxRun; pool: string[] }> {
  const r = await start();
  const guides: string[] = [];
  for (let i = 0; i < 2; i++)
    guides.push(
      (await r.client.request<{ id: string }>('POST', '/orgs/org-demo/spaces', { body: { title: 'Guide' } })).body!.id,
    );
  return { r, pool: [...SPACES, ...guides] };
}
const SPACES = ['Getting Started', 'Changelog', 'Runbooks', 'API Reference'];
const SPACE_IDS = ['sp-getting-started', 'sp-changelog', 'sp-runbooks', 'sp-api'];
/** Cases per property, and a seed offset (fixed by default; DRIFT_CASES / DRIFT_SEED explore more). */
const N = Number(process.env['DRIFT_CASES'] ?? 30);
const SEED = Number(process.env['DRIFT_SEED'] ?? 0);

type Rand = () => number;
function rng(seed: number): Rand {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const shuffled = <T>(r: Rand, xs: readonly T[]): T[] => {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};
const pick = <T>(r: Rand, xs: readonly T[]): T | undefined => xs[Math.floor(r() * xs.length)];

function siteSpaces(r: Rand, k: number, pool: readonly string[]): unknown[] {
  const paths = new Set<string>();
  return shuffled(r, pool)
    .slice(0, k)
    .map((space) => {
      const path = r() < 0.5 ? pick(r, ['p', 'q', 'guide']) : undefined;
      const condition = r() < 0.15 ? 'visitor.claims.beta === true' : undefined;
      const usable = path !== undefined && !paths.has(path);
      if (usable) paths.add(path);
      return usable || condition ? { space, ...(usable ? { path } : {}), ...(condition ? { condition } : {}) } : space;
    });
}

function randomSite(r: Rand, title: string, pool: readonly string[]): Record<string, unknown> {
  if (r() < 0.15) return { title, spaces: siteSpaces(r, 1 + Math.floor(r() * 4), pool) };
  const paths = shuffled(r, ['a', 'b', 'c', 'd']).slice(0, 1 + Math.floor(r() * 3));
  const spec: Record<string, unknown> = {
    title,
    sections: paths.map((p) => ({
      path: p,
      title: `Section ${p}`,
      spaces: siteSpaces(r, 1 + Math.floor(r() * 3), pool),
    })),
  };
  if (r() < 0.4) {
    const order = shuffled(r, paths);
    const cut = 1 + Math.floor(r() * order.length);
    const groups = [{ title: pick(r, ['Users', 'Developers'])!, sections: order.slice(0, cut) }];
    if (cut < order.length && r() < 0.5)
      groups.push({ title: groups[0]!.title === 'Users' ? 'Developers' : 'Users', sections: order.slice(cut) });
    spec['sectionGroups'] = groups;
  }
  if (r() < 0.3) spec['defaultSection'] = pick(r, paths);
  return spec;
}

async function apply(
  r: SandboxRun,
  spec: Record<string, unknown>,
  prune: boolean,
): Promise<{ plan: Plan; failed: unknown[]; next: Plan }> {
  writeFileSync(join(r.dir, 'site.yaml'), siteYaml(spec, prune));
  const { desired } = await loadManifests(r.dir, KINDS, { env: {} });
  const { plan } = await computePlan(r.client, KINDS, desired);
  const report = await applyPlan(r.client, plan);
  return { plan, failed: report.failed, next: (await computePlan(r.client, KINDS, desired)).plan };
}

/** Blocks no request sequence gets around: root spaces on a site with sections; with prune off, a path a site space the manifest does not list keeps. */
const unreachable = (message: string, prune: boolean): boolean =>
  /cannot go back to root spaces/.test(message) || (!prune && /\(prune is off\)/.test(message));

/** What is wrong with one round, or undefined: converged, or blocked for an unreachable state (and then nothing failed). */
function verdict(
  x: { plan: Plan; failed: unknown[]; next: Plan },
  prune: boolean,
  allowDuplicates = false,
): string | undefined {
  if (x.failed.length > 0) return `failed requests: ${JSON.stringify(x.failed)}`;
  if (x.plan.blocked.length > 0) {
    const bad = x.plan.blocked.filter((b) => !unreachable(b.message, prune));
    return bad.length > 0 ? `blocked: ${bad.map((b) => b.message).join('; ')}` : undefined;
  }
  if (x.next.steps.length > 0)
    return `not converged: ${JSON.stringify(x.next.steps.map((s) => [s.id, s.requests.map((q) => q.body)]))}`;
  // With prune off, a space live edits added twice to one section stays (unmanaged) and is named in a warning.
  const warnings = x.next.warnings.filter((w) => !(allowDuplicates && !prune && / twice; /.test(w.message)));
  if (warnings.length > 0 || x.next.blocked.length > 0)
    return `next plan: ${JSON.stringify([...warnings, ...x.next.blocked])}`;
  return undefined;
}

/** From random structure A to random structure B (seeded): what is wrong, or undefined. */
async function transition(
  r: SandboxRun,
  pool: readonly string[],
  seed: number,
  i: number,
): Promise<string | undefined> {
  const rand = rng(seed);
  const prune = rand() < 0.5;
  const title = `Drift site ${i}`;
  const a = randomSite(rand, title, pool);
  const b = randomSite(rand, title, pool);
  const problem = verdict(await apply(r, a, prune), prune) ?? verdict(await apply(r, b, prune), prune);
  return problem && `#${i} (seed ${seed}) prune=${prune} A=${JSON.stringify(a)} B=${JSON.stringify(b)}: ${problem}`;
}

/** Random structure A (seeded), random live edits, then A again: what is wrong, or undefined. */
async function edited(r: SandboxRun, pool: readonly string[], seed: number, i: number): Promise<string | undefined> {
  const rand = rng(seed);
  const prune = rand() < 0.5;
  const title = `Edited site ${i}`;
  const spec = randomSite(rand, title, pool);
  const first = verdict(await apply(r, spec, prune), prune);
  if (first) return `#${i} (seed ${seed}) A=${JSON.stringify(spec)}: ${first}`;
  const edits = await editLive(r, rand, title);
  const second = verdict(await apply(r, spec, prune), prune, true);
  return second && `#${i} (seed ${seed}) prune=${prune} A=${JSON.stringify(spec)} edits=${edits.join(', ')}: ${second}`;
}

describe('site structure drift, property', () => {
  it('from any structure to any other in one apply (or blocked for a reason no request sequence gets around)', async () => {
    const { r, pool } = await startWithPool();
    const problems: string[] = [];
    for (let i = 0; i < N; i++) {
      const problem = await transition(r, pool, SEED + 1000 + i, i);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('back to the manifest after random live edits in one apply (or blocked likewise)', async () => {
    const { r, pool } = await startWithPool();
    const problems: string[] = [];
    for (let i = 0; i < N; i++) {
      const problem = await edited(r, pool, SEED + 5000 + i, i);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
  }, 60_000);

  // Cases longer runs (DRIFT_CASES=250, several DRIFT_SEED) once found, replayed every time: root site spaces
  // landing in one of several new sections next to spaces sharing a title, a replaced root's derived path, and a
  // space shown twice whose matched site space must not change between plans.
  it('replays the cases longer runs found', async () => {
    const { r, pool } = await startWithPool();
    const problems: string[] = [];
    for (const seed of [301021, 1301030, 1801113, 4301176]) {
      const problem = await transition(r, pool, seed, seed);
      if (problem) problems.push(problem);
    }
    const problem = await edited(r, pool, 2205221, 2205221);
    if (problem) problems.push(problem);
    expect(problems).toEqual([]);
  }, 60_000);
});

/** One to four random changes through the API (the server refusing one is fine: it is skipped). */
async function editLive(r: SandboxRun, rand: Rand, title: string): Promise<string[]> {
  const sites = await r.client.listAll<{ id: string; title: string }>('/orgs/org-demo/sites');
  const base = `/orgs/org-demo/sites/${sites.find((s) => s.title === title)!.id}`;
  const call = (method: 'PATCH' | 'POST', path: string, body: unknown): Promise<unknown> =>
    r.client.request(method, `${base}${path}`, { body });
  const edits: string[] = [];
  const n = 1 + Math.floor(rand() * 4);
  for (let k = 0; k < n; k++) {
    const items = await r.client.listAll<{ id: string; path: string; section?: string; space: { id: string } }>(
      `${base}/site-spaces`,
    );
    const sections = await r.client.listAll<{ id: string; path: string }>(`${base}/sections`);
    const groups = await r.client.listAll<{ id: string; title: string }>(`${base}/section-groups`);
    const x = pick(rand, items);
    const y = pick(rand, items);
    const op = Math.floor(rand() * 7);
    try {
      if (op === 0 && x && y && x !== y) {
        await call('PATCH', `/site-spaces/${x.id}`, { spaceId: y.space.id });
        await call('PATCH', `/site-spaces/${y.id}`, { spaceId: x.space.id });
        edits.push('swap spaces');
      } else if (op === 1 && x && y && x !== y && x.section === y.section) {
        await call('PATCH', `/site-spaces/${x.id}`, { path: 'edit-tmp' });
        await call('PATCH', `/site-spaces/${y.id}`, { path: x.path });
        await call('PATCH', `/site-spaces/${x.id}`, { path: y.path });
        edits.push('swap paths');
      } else if (op === 2 && x && y && x !== y) {
        await call('POST', `/site-spaces/${x.id}/move`, {
          position: { before: { type: 'site-space', siteSpace: y.id } },
        });
        edits.push(`move ${x.id} before ${y.id}`);
      } else if (op === 3 && sections.length > 1) {
        const [s1, s2] = shuffled(rand, sections);
        await call('PATCH', `/sections/${s1!.id}`, { path: 'edit-tmp' });
        await call('PATCH', `/sections/${s2!.id}`, { path: s1!.path });
        await call('PATCH', `/sections/${s1!.id}`, { path: s2!.path });
        edits.push('swap section paths');
      } else if (op === 4 && groups.length > 1) {
        await call('PATCH', `/section-groups/${groups[0]!.id}`, { title: 'edit-tmp' });
        await call('PATCH', `/section-groups/${groups[1]!.id}`, { title: groups[0]!.title });
        await call('PATCH', `/section-groups/${groups[0]!.id}`, { title: groups[1]!.title });
        edits.push('swap group titles');
      } else if (op === 5) {
        const section = pick(rand, sections);
        await call('POST', '/site-spaces', {
          spaceId: pick(rand, SPACE_IDS),
          ...(section ? { sectionId: section.id } : {}),
        });
        edits.push('add');
      } else if (op === 6 && x) {
        const to = pick(rand, SPACE_IDS);
        await call('PATCH', `/site-spaces/${x.id}`, { spaceId: to });
        edits.push(`re-point ${x.id} to ${to}`);
      }
    } catch {
      edits.push('(refused)');
    }
  }
  return edits;
}
