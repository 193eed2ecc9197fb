/**
 * The least-privilege token a plan names: the spec's per-operation OAuth scopes, matched to the plan's requests
 * by method and path template, shipped as a generated table (no dev dependency at run time).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeScopesTable } from '../../tools/build/extract-scopes.js';
import { parsePlanJson } from '../../src/plan-file/read-plan.js';
import { extractScopes, matchOperation, operationScopes, type OperationScopes } from '../../src/scopes/operations.js';
import { tokenNeeds } from '../../src/scopes/needs.js';
import { runCli } from '../cli/run-cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'docops-scopes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the scopes table', () => {
  it("takes each operation's oauth scopes from its own security, none when it has none", () => {
    const table = extractScopes({
      paths: {
        '/orgs/{organizationId}/teams': {
          get: { security: [{ user: [] }, { oauth: ['organization:members:read'] }] },
          put: { security: [{ user: [] }, { oauth: ['organization:members:write'] }] },
        },
        '/orgs/{organizationId}': { get: {} },
      },
    });
    expect(table).toEqual([
      { method: 'GET', path: '/orgs/{organizationId}', scopes: [] },
      { method: 'GET', path: '/orgs/{organizationId}/teams', scopes: ['organization:members:read'] },
      { method: 'PUT', path: '/orgs/{organizationId}/teams', scopes: ['organization:members:write'] },
    ]);
  });

  it("the build step writes the whole spec's table to the file that ships", () => {
    const out = join(scratch, 'operation-scopes.json');
    const n = writeScopesTable(out);
    const spec = JSON.parse(
      readFileSync(createRequire(import.meta.url).resolve('@gitbook/api/spec/openapi.json'), 'utf8'),
    ) as Parameters<typeof extractScopes>[0];
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(extractScopes(spec));
    expect(n).toBeGreaterThan(100);
  });

  it('matches a request to its operation by method and path template, literal segments first', () => {
    expect(matchOperation('GET', '/orgs/o1/teams')?.scopes).toEqual(['organization:members:read']);
    expect(matchOperation('PUT', '/orgs/o1/teams')?.scopes).toEqual(['organization:members:write']);
    expect(matchOperation('PATCH', '/orgs/o1/members/u1')?.path).toBe('/orgs/{organizationId}/members/{userId}');
    expect(matchOperation('POST', '/orgs/o1/members/u1/sso')?.path).toBe('/orgs/{organizationId}/members/{userId}/sso');
    expect(matchOperation('GET', '/orgs/o1/teams?limit=1000')?.path).toBe('/orgs/{organizationId}/teams');
    expect(matchOperation('DELETE', '/orgs/o1/no-such-thing')).toBeUndefined();
  });

  it("answers by the request's shape as a scan of every template would, for every operation and ids that look like literals", () => {
    // The reference: the first template (most literal segments first) whose literals all equal the request's.
    const ops = operationScopes();
    const scan = (method: string, path: string): OperationScopes | undefined => {
      const segs = path.split('/').slice(1);
      const fits = ops
        .filter((o) => o.method === method)
        .map((o) => o.path.split('/').slice(1))
        .map((t, i) => ({ t, op: ops.filter((o) => o.method === method)[i]! }))
        .filter(({ t }) => t.length === segs.length && t.every((s, j) => /^\{.*\}$/.test(s) || s === segs[j]));
      return fits.sort(
        (a, b) => b.t.filter((s) => !/^\{.*\}$/.test(s)).length - a.t.filter((s) => !/^\{.*\}$/.test(s)).length,
      )[0]?.op;
    };
    // Every template with its parameters filled three ways: an id, a literal of another template, and `sso`.
    const fills = ['x1', 'members', 'sso', 'teams', 'sites'];
    let compared = 0;
    for (const op of ops) {
      for (const fill of fills) {
        const path = op.path.replace(/\{[^}]+\}/g, fill);
        expect(matchOperation(op.method, path), `${op.method} ${path}`).toBe(scan(op.method, path));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('sorts scopes and sets apart operations without a scope and requests the spec does not have', () => {
    const needs = tokenNeeds([
      { method: 'PUT', path: '/orgs/o/teams' },
      { method: 'GET', path: '/orgs/o/teams' },
      { method: 'GET', path: '/orgs/o' },
      { method: 'GET', path: '/nowhere' },
    ]);
    expect(needs).toEqual({
      scopes: ['organization:members:read', 'organization:members:write'],
      personalTokenOnly: ['GET /orgs/{organizationId}'],
      unmatched: ['GET /nowhere'],
    });
  });
});

describe('plan names its token', () => {
  const M = ['-m', 'config.example/manifests', '--sandbox', '--log-level', 'silent'];

  it('plan --format json carries the read scopes of its fetch and the write scopes of its steps', async () => {
    const run = await runCli(['plan', ...M, '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as {
      scopes: { plan: { scopes: string[]; unmatched: string[] }; apply: { scopes: string[]; unmatched: string[] } };
    };
    // Planning only reads: no write scope.
    expect(doc.scopes.plan.scopes.length).toBeGreaterThan(0);
    expect(doc.scopes.plan.scopes.filter((s) => !s.endsWith(':read'))).toEqual([]);
    expect(doc.scopes.plan.scopes).toEqual(expect.arrayContaining(['organization:members:read', 'site:read']));
    // The example creates a team, a site and an OpenAPI spec, and changes a member's role.
    expect(doc.scopes.apply.scopes).toEqual(
      expect.arrayContaining([
        'organization:members:write',
        'site:write',
        'openapi:write',
        'user:read',
        ...doc.scopes.plan.scopes,
      ]),
    );
    // Requests with ids known only after apply (refs) still match their operation.
    expect(doc.scopes.apply.unmatched).toEqual([]);
    expect(doc.scopes.plan.unmatched).toEqual([]);
    // Derived data: the plan parser takes the document and drops it.
    expect(parsePlanJson(run.stdout)).not.toHaveProperty('scopes');
  });

  it('the text plan says which scopes plan and apply need', async () => {
    const run = await runCli(['plan', ...M]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^Token scopes: plan [^;]*organization:members:read[^;]*; apply .*organization:members:write/m,
    );
  });
});
