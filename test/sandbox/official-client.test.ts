/**
 * The sandbox as a faithful API for any client (issue 18): the platform's own generated client (`@gitbook/api`,
 * not written by us) calls every operation the sandbox serves, with the optional shapes the official spec
 * allows, and each case checks the status and the effect (read back after the write). Every answer is also
 * checked against the spec's response schema (harness.ts). The differences management-api.md makes normative
 * are expected failures, by name (official-client/cases.ts NORMATIVE).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../../packages/sandbox/src/routes/index.js';
import { Router, type RouteDef } from '../../packages/sandbox/src/router.js';
import { CASES, NORMATIVE, NOT_IN_SPEC, operationIdOf } from './official-client/cases.js';
import { RAW_CASES } from './official-client/cases-raw.js';
import { operationOf, startEnv, type Env } from './official-client/harness.js';

let env: Env | undefined;
afterEach(async () => {
  await env?.sb.close();
  env = undefined;
});

async function runCase(run: (e: Env) => Promise<void>): Promise<void> {
  env = await startEnv();
  await run(env);
  expect(env.problems, "answers outside the spec's response schemas").toEqual([]);
}

describe('the official client against the sandbox', () => {
  for (const c of CASES) {
    const why = NORMATIVE[c.name] ?? NORMATIVE[operationIdOf(c)];
    if (why === undefined) it(c.name, () => runCase(c.run));
    else it.fails(`${c.name} — normative difference: ${why}`, () => runCase(c.run));
  }
});

describe('operations the spec lacks, over plain HTTP', () => {
  for (const c of RAW_CASES)
    it(c.route, async () => {
      env = await startEnv();
      await c.run(env);
    });
});

/** A router that notes every route the sandbox registers, as `METHOD /spec/path`-like pairs. */
class Served extends Router {
  readonly seen: { method: string; path: string }[] = [];

  override add<B = undefined>(def: RouteDef<B>): this {
    this.seen.push({ method: def.method, path: def.pattern.replace(/^\/v1/, '') });
    return super.add(def);
  }
}

function servedRoutes(): { method: string; path: string }[] {
  const router = new Served();
  for (const def of Object.values(ROUTES)) router.add(def);
  return router.seen;
}

describe('coverage', () => {
  it('every operation the sandbox serves has a case, except those the spec lacks', () => {
    const covered = new Set(CASES.map(operationIdOf));
    const missing: string[] = [];
    const notInSpec: string[] = [];
    for (const r of servedRoutes()) {
      const op = operationOf(r.method, r.path);
      const named = `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`;
      if (!op) notInSpec.push(named);
      else if (!covered.has(op.operationId)) missing.push(`${op.operationId} (${named})`);
    }
    expect(missing).toEqual([]);
    expect(notInSpec).toEqual(NOT_IN_SPEC);
    // The client has no method for those: each is driven over plain HTTP instead (official-client/cases-raw.ts).
    expect(RAW_CASES.map((c) => c.route).sort()).toEqual([...NOT_IN_SPEC].sort());
  });

  it('every case names a spec operation, and every normative exclusion names a case', () => {
    const served = new Set(servedRoutes().flatMap((r) => operationOf(r.method, r.path)?.operationId ?? []));
    expect(CASES.map(operationIdOf).filter((id) => !served.has(id))).toEqual([]);
    const names = new Set(CASES.flatMap((c) => [c.name, operationIdOf(c)]));
    expect(Object.keys(NORMATIVE).filter((n) => !names.has(n))).toEqual([]);
  });

  it('docs/dev/api-differences.md lists every normative exclusion and every operation missing from the spec', () => {
    const doc = readFileSync(new URL('../../docs/dev/api-differences.md', import.meta.url), 'utf8');
    for (const name of [...Object.keys(NORMATIVE), ...NOT_IN_SPEC]) expect(doc, name).toContain(`\`${name}\``);
  });
});
