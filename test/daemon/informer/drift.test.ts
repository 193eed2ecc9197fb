/**
 * The randomized drift test (issue 25): a second actor makes random changes of every kind through the sandbox
 * between cycles; after every cycle the informer's live state equals a full read, and so does its plan — also in
 * cycles where the audit events are withheld (403), served out of order, expired, or name an action no kind knows.
 * Half the cycles apply the plan, so docops's own writes (and their events) are followed too. The manifests also
 * write a site's redirects, sign-in settings, external links and publication, and merge rules (issue 29).
 *
 * Seeds are fixed so a failure can be run again; DOCOPS_DRIFT_SEEDS=1,2,3 and DOCOPS_DRIFT_CYCLES=N explore more.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import { diffAll, fetchLive } from '../../../src/engine/reconcile.js';
import type { DesiredState, LiveState } from '../../../src/model/state.js';
import { Informer } from '../../../src/daemon/informer/informer.js';
import { KINDS } from '../../../src/kinds/index.js';
import { orgs } from '@docops/sandbox';
import { fastClient, loadDesired, planAndApply, tempDir } from '../../helpers/pipeline.js';
import { sandbox } from '../../sandbox/helpers.js';
import { CAROL } from '../../audit/fixtures.js';
import { randomChange, recolor, rngOf } from './drift-ops.js';

const EXAMPLE = new URL('../../../config.example/manifests', import.meta.url).pathname;
const SEEDS = (process.env['DOCOPS_DRIFT_SEEDS'] ?? '11,23,42').split(',').map(Number);
const CYCLES = Number(process.env['DOCOPS_DRIFT_CYCLES'] ?? 24);

/** The example manifests, with access lists, a SAML provider and prune on Team and Members (counts are read). */
function manifests(): string {
  const dir = tempDir('drift');
  cpSync(EXAMPLE, dir, { recursive: true });
  const edit = (file: string, from: string, to: string): void => {
    const text = readFileSync(join(dir, file), 'utf8');
    if (!text.includes(from)) throw new Error(`${file}: no "${from}"`);
    writeFileSync(join(dir, file), text.replace(from, to));
  };
  edit(
    'spaces.yaml',
    '  id: sp-runbooks\n',
    '  id: sp-runbooks\n  access:\n    - { team: Platform, role: admin }\n    - { email: dan@acme.test, role: comment }\n',
  );
  edit('spaces.yaml', '  id: col-internal\n', '  id: col-internal\n  access:\n    - { team: Writers, role: read }\n');
  edit('site.yaml', '  basename: help\n', '  basename: help\n  access:\n    - { team: Support, role: read }\n');
  // Issue 29: the site's redirects, visitor sign-in, external links and publication; merge rules on the organization and a space.
  edit(
    'site.yaml',
    '  basename: help\n',
    '  basename: help\n  published: true\n  publishingAuth: { logoutURL: https://acme.test/logout }\n  redirects:\n    - { source: /old, destination: https://acme.test/new }\n    - { source: /start, destination: { section: getting-started } }\n  externalLinks:\n    - { title: Status, url: https://status.acme.test }\n    - { title: Blog, url: https://acme.test/blog, group: Developers }\n',
  );
  edit(
    'organization.yaml',
    '  inviteLinks: true\n',
    '  inviteLinks: true\n  mergeRules: { type: rules, rules: [{ rule: require_specific_reviewers, users: [bob@acme.test] }] }\n',
  );
  edit(
    'spaces.yaml',
    '  id: sp-runbooks\n',
    '  id: sp-runbooks\n  mergeRules: { type: rules, rules: [{ rule: require_one_of_specific_reviewers, users: [dan@acme.test] }] }\n',
  );
  edit(
    'teams.yaml',
    'kind: Team\nmetadata:\n  organization: org-demo\nspec:\n  title: Support',
    'kind: Team\nmetadata:\n  organization: org-demo\nprune: true\nspec:\n  title: Support',
  );
  edit(
    'members.yaml',
    'kind: Members\nmetadata:\n  organization: org-demo\n',
    'kind: Members\nmetadata:\n  organization: org-demo\nprune: true\n',
  );
  writeFileSync(
    join(dir, 'saml.yaml'),
    [
      'apiVersion: docops/v1',
      'kind: SamlProvider',
      'metadata: { organization: org-demo }',
      'spec:',
      '  label: Okta',
      '  entityID: http://www.okta.com/exk1',
      '  ssoURL: https://acme.okta.com/app/sso',
      '  defaultTeam: Platform',
      '  defaultRole: read',
      '',
    ].join('\n'),
  );
  return dir;
}

const plain = (live: LiveState): unknown => Object.fromEntries([...live].sort(([a], [b]) => (a < b ? -1 : 1)));

/** The plan, or the error planning ends with (both reads must end the same way). */
function planOf(desired: DesiredState, live: LiveState): unknown {
  try {
    const p = diffAll(KINDS, desired, live);
    return {
      steps: p.steps.map((s) => ({ id: s.id, requests: s.requests, after: s.after })),
      blocked: p.blocked,
      unmanaged: p.unmanaged,
    };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

async function outcome<T>(read: () => Promise<T>): Promise<{ ok: T } | { error: string }> {
  try {
    return { ok: await read() };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

describe('randomized drift: the informer equals a full read after every cycle', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}`, { timeout: 180_000 }, async () => {
      const rng = rngOf(seed);
      const { sb, call } = await sandbox({ actorTokens: [CAROL] });
      const carol = (method: string, path: string, body?: unknown) => call(method, path, body, { token: CAROL.token });
      const client = fastClient(sb);
      const desired = await loadDesired(manifests());
      await planAndApply(client, desired);
      const informer = new Informer({
        kinds: KINDS,
        client,
        config: { overlapMs: 60_000, maxPages: 10, resyncMs: 0 },
        selfId: async () => 'u-ada',
      });
      const reads: string[] = [];
      let n = 0;
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const changes = Math.floor(rng() * 6);
        for (let i = 0; i < changes; i++) {
          const op = randomChange(sb, rng, ++n);
          if (op) await carol(op.method, op.path, op.body);
        }
        if (rng() < 0.15) await recolor(sb, carol, rng);
        const fault = rng();
        const org = orgs(sb.store).get('org-demo')!;
        if (fault < 0.08)
          orgs(sb.store).put({ ...org, plan: 'pro_2024' }); // withheld: no Enterprise plan
        else if (fault < 0.16) sb.audit.faults = { reorder: true };
        // Expired: retention keeps only the newest events (never none: a log drops its oldest first).
        else if (fault < 0.22) sb.audit.keepNewest(1 + Math.floor(rng() * 3));
        else if (fault < 0.26)
          sb.audit.add({
            id: `odd-${n}`,
            orgId: 'org-demo',
            occurredAt: new Date().toISOString(),
            action: 'widget.frobbed',
            actor: { type: 'user', id: 'u-carol' },
            source: 'api',
            target: { type: 'widget', id: 'w1' },
          });

        const got = await outcome(() => informer.read(desired, {}));
        sb.audit.faults = {};
        orgs(sb.store).put({ ...orgs(sb.store).get('org-demo')!, plan: org.plan });
        const fresh = await outcome(() => fetchLive(client, KINDS, desired));
        const where = `seed ${seed}, cycle ${cycle}`;
        if ('error' in fresh || 'error' in got) {
          expect('error' in got ? got.error : 'read', where).toBe('error' in fresh ? fresh.error : 'read');
          continue;
        }
        reads.push(got.ok.orgs.map((o) => o.read + (o.why ? `:${o.why}` : '')).join());
        expect(plain(got.ok.live), where).toEqual(plain(fresh.ok));
        expect(planOf(desired, got.ok.live), where).toEqual(planOf(desired, fresh.ok));
        if (rng() < 0.5) {
          const plan = diffAll(KINDS, desired, got.ok.live);
          const report = await applyPlan(client, plan);
          await informer.wrote(plan, report, desired, {});
        }
      }
      // Every path was taken: follows, and full reads for the faults.
      expect(reads.filter((r) => r.startsWith('informer')).length, reads.join(' ')).toBeGreaterThan(CYCLES / 3);
      expect(
        reads.some((r) => r.startsWith('full:')),
        reads.join(' '),
      ).toBe(true);
    });
  }
});
