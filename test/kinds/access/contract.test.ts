/**
 * CONTRACT CHECK of what docops sends for access lists: every permission request in the plans docops makes (grants
 * on new and live spaces, collections and sites, role changes, a site's null override, removals) is an operation
 * of the official spec, and each body validates against that operation's request schema. The plans then apply
 * against the sandbox without a failure and converge (the next plan is empty). All fifteen write operations
 * (POST, PATCH and DELETE per team and per user, on the three objects) are covered, asserted below.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import { type Plan } from '../../../src/model/plan.js';
import { placeholder } from '../../../src/model/refs.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { KINDS } from '../../../src/kinds/index.js';
import { loadManifests } from '../../../src/manifests/index.js';
import { requestValidator, spec } from '../../sandbox/contract-spec.js';
import { sandboxPerTest, type SandboxRun } from '../sandbox-per-test.js';

const ORG = 'org-demo';
const start = sandboxPerTest('access-contract');

type Doc = { kind: string; spec: Record<string, unknown> };
const doc = (kind: string, s: Record<string, unknown>): Doc => ({ kind, spec: s });

let dirs = 0;
async function plan(r: SandboxRun, docs: readonly Doc[]): Promise<Plan> {
  const dir = join(r.dir, String(dirs++));
  mkdirSync(dir);
  docs.forEach((d, i) =>
    writeFileSync(
      join(dir, `${i}.yaml`),
      `apiVersion: docops/v1\nkind: ${d.kind}\nmetadata: { organization: ${ORG} }\nspec: ${JSON.stringify(d.spec)}\n`,
    ),
  );
  const { desired } = await loadManifests(dir, KINDS, { env: {} });
  const { plan: p } = await computePlan(r.client, KINDS, desired);
  expect(p.blocked).toEqual([]);
  return p;
}

const escape = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const sample = placeholder('STEP', 'OUT');
const PLACEHOLDER = new RegExp(
  `${escape(sample.slice(0, sample.indexOf('STEP')))}.*?${escape(sample.slice(sample.indexOf('OUT') + 3))}`,
  'g',
);

/** The spec path of a permission request docops sends (ids, refs included, become the spec's parameters). */
function specPath(path: string): string | undefined {
  // A ref to an object created in the plan reads as its placeholder (a step id, slashes inside): one segment.
  const m =
    /^(\/spaces\/[^/]+|\/collections\/[^/]+|\/orgs\/[^/]+\/sites\/[^/]+)\/permissions(\/(teams|users)\/[^/]+)?$/.exec(
      path.replace(PLACEHOLDER, 'REF'),
    );
  if (!m) return undefined;
  const base = m[1]!.startsWith('/spaces/')
    ? '/spaces/{spaceId}'
    : m[1]!.startsWith('/collections/')
      ? '/collections/{collectionId}'
      : '/orgs/{organizationId}/sites/{siteId}';
  const one = m[3] === undefined ? '' : m[3] === 'teams' ? '/teams/{teamId}' : '/users/{userId}';
  return `${base}/permissions${one}`;
}

const covered = new Set<string>();

/** Every permission request of the plan: a spec operation, its body valid against the spec's request schema. */
function checkAgainstSpec(p: Plan): number {
  let n = 0;
  for (const step of p.steps) {
    for (const q of step.requests) {
      const template = specPath(q.path);
      if (template === undefined) continue;
      n++;
      expect(spec.paths[template]?.[q.method.toLowerCase()], `${q.method} ${template}`).toBeDefined();
      covered.add(`${q.method} ${template}`);
      if (q.method === 'DELETE') {
        expect(q.body).toBeUndefined();
        continue;
      }
      const validate = requestValidator(q.method, template);
      expect(
        validate(q.body),
        `${step.id} ${q.method} ${q.path} ${JSON.stringify(q.body)}: ${JSON.stringify(validate.errors)}`,
      ).toBe(true);
    }
  }
  return n;
}

async function applyAndConverge(r: SandboxRun, docs: readonly Doc[]): Promise<void> {
  const p = await plan(r, docs);
  expect(checkAgainstSpec(p)).toBeGreaterThan(0);
  const report = await applyPlan(r.client, p, { concurrency: 8 });
  expect(report.failed).toEqual([]);
  expect((await plan(r, docs)).steps).toEqual([]);
}

const site = (access: unknown[]): Doc => doc('Site', { title: 'Help Center', spaces: ['Onboarding'], access });

describe('contract: the permission requests docops sends', () => {
  it('grant, change and remove on spaces, collections and sites: every request is a spec operation with a valid body', async () => {
    const r = await start();
    // From nothing: grants on a new collection, space and site, to a team created in the same plan, live teams and members.
    await applyAndConverge(r, [
      doc('Team', { title: 'Docs' }),
      doc('Collection', {
        title: 'Handbook',
        access: [
          { team: 'Docs', role: 'admin' },
          { email: 'carol@acme.test', role: 'read' },
        ],
      }),
      doc('Space', {
        title: 'Onboarding',
        parent: 'Handbook',
        access: [
          { team: 'Docs', role: 'edit' },
          { team: 'Writers', role: 'edit' },
          { email: 'dan@acme.test', role: 'comment' },
        ],
      }),
      site([
        { team: 'Support', role: 'read' },
        { team: 'Writers', role: 'read' },
        { email: 'erin@acme.test', role: null },
        { email: 'frank@acme.test', role: 'read' },
      ]),
    ]);
    // Role changes (PATCH per team and user), a site grant becoming a null override (POST), removals (DELETE).
    await applyAndConverge(r, [
      doc('Team', { title: 'Docs' }),
      doc('Collection', {
        title: 'Handbook',
        access: [
          { team: 'Docs', role: 'edit' },
          { email: 'carol@acme.test', role: 'comment' },
        ],
      }),
      doc('Space', {
        title: 'Onboarding',
        parent: 'Handbook',
        access: [
          { team: 'Docs', role: 'review' },
          { email: 'dan@acme.test', role: 'read' },
        ],
      }),
      site([
        { team: 'Support', role: null },
        { team: 'Writers', role: 'edit' },
        { email: 'erin@acme.test', role: 'read' },
      ]),
    ]);
    // Everything removed: DELETE per team and user on each object.
    await applyAndConverge(r, [
      doc('Team', { title: 'Docs' }),
      doc('Collection', { title: 'Handbook', access: [] }),
      doc('Space', { title: 'Onboarding', parent: 'Handbook', access: [] }),
      site([]),
    ]);
    const targets = ['/spaces/{spaceId}', '/collections/{collectionId}', '/orgs/{organizationId}/sites/{siteId}'];
    const all = targets.flatMap((t) => [
      `POST ${t}/permissions`,
      ...['PATCH', 'DELETE'].flatMap((m) => [
        `${m} ${t}/permissions/teams/{teamId}`,
        `${m} ${t}/permissions/users/{userId}`,
      ]),
    ]);
    expect([...covered].sort()).toEqual(all.sort());
  });
});
