/**
 * The stand-in runner reads workflows as GitHub does, or refuses: test/e2e/init-road.test.ts trusts it to skip
 * exactly the jobs GitHub would skip, so its expressions and filters are held to GitHub's documented rules here.
 */
import { describe, expect, it } from 'vitest';
import { condition, evaluate, interpolate } from './workflow-expressions.js';
import { globRegex } from './workflow-runner.js';

const github = {
  event_name: 'push',
  ref_name: 'trunk',
  event: { repository: { default_branch: 'trunk' }, pull_request: null },
};
const ok = { success: true };

describe('the stand-in runner', () => {
  it('evaluates if: as GitHub does: case-insensitive strings, null for missing properties, operands from && and ||', () => {
    const context = { github, needs: { plan: { outputs: { changes: 'true' } } } };
    expect(condition('github.ref_name == github.event.repository.default_branch', context, ok)).toBe(true);
    expect(condition("github.event_name == 'PUSH'", context, ok)).toBe(true);
    expect(condition("github.event_name == 'pull_request'", context, ok)).toBe(false);
    expect(condition("needs.plan.outputs.changes == 'true' && github.event_name != 'pull_request'", context, ok)).toBe(
      true,
    );
    expect(evaluate('github.event.pull_request.head.repo.full_name', context, ok)).toBeNull();
    expect(evaluate("github.missing || 'fallback'", context, ok)).toBe('fallback');
    expect(condition("${{ !(github.event_name == 'push') }}", context, ok)).toBe(false);
  });

  it('a failed step or job skips what follows unless its if: asks for a status', () => {
    expect(condition(undefined, {}, { success: false })).toBe(false);
    expect(condition("github.event_name == 'push'", { github }, { success: false })).toBe(false);
    expect(condition('always()', {}, { success: false })).toBe(true);
    expect(condition('failure()', {}, { success: false })).toBe(true);
  });

  it('interpolates ${{ }} (null as empty) and refuses what it cannot read', () => {
    expect(interpolate('docops-${{ github.ref_name }}-${{ secrets.NONE }}', { github, secrets: {} }, ok)).toBe(
      'docops-trunk-',
    );
    expect(() => evaluate('hashFiles()', { github }, ok)).toThrow(/does not know the function/);
    expect(() => evaluate("contains(github.ref_name, 'x')", { github }, ok)).toThrow(/does not read/);
    expect(() => evaluate('github.ref_name[0]', { github }, ok)).toThrow(/does not read/);
  });

  it('matches path filters as GitHub globs', () => {
    expect(globRegex('manifests/**').test('manifests/sites/help.yaml')).toBe(true);
    expect(globRegex('manifests/**').test('docs/manifests/x.yaml')).toBe(false);
    expect(globRegex('docops.yaml').test('docops.yaml')).toBe(true);
    expect(globRegex('docops.yaml').test('docopsXyaml')).toBe(false);
    expect(globRegex('*.yml').test('.github/workflows/docops.yml')).toBe(false);
    expect(() => globRegex('!docs/**')).toThrow(/negated/);
  });
});
