/**
 * Every plan the suite prints as JSON — `plan --format json`, `apply --format json`, saved-plan files; each goes
 * through renderJson — is checked against schemas/plan.schema.json, in every test file: renderJson is wrapped to
 * check what it returns, and a test file that printed a plan the schema refuses fails after its tests, naming the
 * problems (test/render/plan-schema.test.ts shows the wrapper catches a member the schema does not know).
 */
import { afterAll, expect, vi } from 'vitest';
import type * as JsonModule from '../src/render/json.js';

const found = vi.hoisted(() => ({ problems: [] as string[] }));

vi.mock('../src/render/json.js', async (importOriginal) => {
  const original = await importOriginal<typeof JsonModule>();
  const { planSchemaProblems } = await import('./plan-schema-check.js');
  const renderJson: typeof original.renderJson = (plan, options) => {
    const text = original.renderJson(plan, options);
    found.problems.push(...planSchemaProblems(text));
    return text;
  };
  return { ...original, renderJson };
});

export const printedPlanProblems = (): string[] => found.problems;

afterAll(() => {
  expect(found.problems, 'plans printed as JSON that schemas/plan.schema.json refuses').toEqual([]);
});
