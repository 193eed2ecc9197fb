/** The action's side of the runner's protocol (action/inputs.ts): INPUT_<NAME> variables in, $GITHUB_OUTPUT out. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { actionInputs, input, setOutputs } from '../../action/inputs.js';

const dir = mkdtempSync(join(tmpdir(), 'docops-action-inputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('action inputs', () => {
  it('reads INPUT_<NAME> as the runner names it: upper case, hyphens kept, spaces as _; trimmed', () => {
    const env = { 'INPUT_PLAN-FILE': '  out/plan.json\n', INPUT_MY_INPUT: 'x' };
    expect(input(env, 'plan-file')).toBe('out/plan.json');
    expect(input(env, 'my input')).toBe('x');
    expect(input(env, 'absent')).toBe('');
  });

  it("applies action.yml's defaults to empty inputs and splits args on whitespace", () => {
    expect(actionInputs({ INPUT_COMMAND: 'plan', INPUT_ARGS: ' --prune Team\n  --allow-env\tORG_ID ' })).toEqual({
      command: 'plan',
      manifests: 'manifests',
      token: '',
      planFile: 'docops-plan.json',
      comment: true,
      commentMarker: 'docops-plan',
      githubToken: '',
      args: ['--prune', 'Team', '--allow-env', 'ORG_ID'],
    });
    expect(actionInputs({ INPUT_COMMENT: 'false' }).comment).toBe(false);
  });
});

describe('action outputs', () => {
  it('appends each output as a delimited block, so a value may hold line breaks and `=`', () => {
    const file = join(dir, 'output.txt');
    writeFileSync(file, 'earlier=1\n');
    setOutputs({ GITHUB_OUTPUT: file }, { 'plan-file': 'a=b\nsecond line', changes: 'true' });
    const text = readFileSync(file, 'utf8');
    const blocks = [...text.matchAll(/^([\w-]+)<<(ghadelimiter_[\w-]+)\n([\s\S]*?)\n\2$/gm)].map((m) => [m[1], m[3]]);
    expect(text.startsWith('earlier=1\n')).toBe(true);
    expect(blocks).toEqual([
      ['plan-file', 'a=b\nsecond line'],
      ['changes', 'true'],
    ]);
  });

  it('writes nothing outside a workflow (no GITHUB_OUTPUT)', () => {
    expect(() => setOutputs({}, { changes: 'true' })).not.toThrow();
  });
});
