/**
 * How a JavaScript action talks to the runner: every input of action.yml arrives as an `INPUT_<NAME>` variable
 * (the name upper-cased, spaces as `_`, hyphens kept; action.yml's default when the workflow gives none), and
 * outputs are appended to the file $GITHUB_OUTPUT names. The same rules as @actions/core's getInput and
 * setOutput (actions/toolkit, packages/core), written out here: they are a few lines, and that package would
 * bring its HTTP client and the rest into the bundle.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { EOL } from 'node:os';

type Env = Readonly<Record<string, string | undefined>>;

export const COMMANDS = ['validate', 'plan', 'apply'] as const;

/** The action's inputs (action.yml), defaults applied. */
export interface ActionInputs {
  command: string;
  manifests: string;
  token: string;
  planFile: string;
  comment: boolean;
  commentMarker: string;
  githubToken: string;
  /** `args`, split on whitespace. */
  args: string[];
}

/** An input's value, trimmed (as getInput does); '' when absent. */
export function input(env: Env, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

export function actionInputs(env: Env): ActionInputs {
  return {
    command: input(env, 'command'),
    manifests: input(env, 'manifests') || 'manifests',
    token: input(env, 'token'),
    planFile: input(env, 'plan-file') || 'docops-plan.json',
    comment: (input(env, 'comment') || 'true') === 'true',
    commentMarker: input(env, 'comment-marker') || 'docops-plan',
    githubToken: input(env, 'github-token'),
    args: input(env, 'args').split(/\s+/).filter(Boolean),
  };
}

/**
 * Append outputs to $GITHUB_OUTPUT, each as a `name<<DELIMITER` block with a random delimiter (a value may hold
 * any text, line breaks included). Without the variable (run outside a workflow) nothing is written.
 */
export function setOutputs(env: Env, outputs: Record<string, string>): void {
  const file = env.GITHUB_OUTPUT;
  if (!file) return;
  let text = '';
  for (const [name, value] of Object.entries(outputs)) {
    const delimiter = `ghadelimiter_${randomUUID()}`;
    text += `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`;
  }
  appendFileSync(file, text, 'utf8');
}
