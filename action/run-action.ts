/**
 * What the docops GitHub Action does (action.yml): the command its `command` input names, run through the CLI's
 * own dispatcher (src/cli/run.ts) in this process — the same flags, errors, exit codes, annotations, job summary
 * and secret redaction as `docops` on a terminal.
 *
 * - validate: offline; the API token is never handed to it.
 * - plan: `--format markdown --detailed-exitcode --out PLAN_FILE`; the markdown goes to the log and, on a
 *   pull_request event, becomes the PR's one docops comment (`docops pr-comment`), edited in place on every push.
 *   Exit 0 (in sync) and 2 (changes pending) both pass; the `changes` output tells them apart.
 * - apply: `--plan PLAN_FILE`: exactly the saved, reviewed plan, or a refusal saying what changed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeData } from '../src/cli/github.js';
import type { CliIO, OutputStream } from '../src/cli/io.js';
import { run } from '../src/cli/run.js';
import { EXIT } from '../src/model/errors.js';
import { actionInputs, COMMANDS, setOutputs, type ActionInputs } from './inputs.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface ActionStreams {
  stdout: OutputStream;
  stderr: OutputStream;
}

/** The environment docops runs with: the `token` input as DOCOPS_TOKEN (else the job's own), `github-token` as GITHUB_TOKEN. */
function docopsEnv(env: Env, inputs: ActionInputs): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...env };
  if (inputs.command === 'validate') delete out.DOCOPS_TOKEN;
  else if (inputs.token !== '') out.DOCOPS_TOKEN = inputs.token;
  if (inputs.githubToken !== '') out.GITHUB_TOKEN = inputs.githubToken;
  return out;
}

/** A workflow command line (`::error file=…::…`): the runner's, not part of the plan a comment shows. */
const WORKFLOW_COMMAND = /^::[A-Za-z-]+(?: [^\n]*)?::/;

/** Run the action's command; returns its exit code (the step fails unless 0). */
export async function runAction(env: Env, streams: ActionStreams): Promise<number> {
  const inputs = actionInputs(env);
  const io = (stdout: OutputStream = streams.stdout, stderr: OutputStream = streams.stderr): CliIO => ({
    stdout,
    stderr,
    env: docopsEnv(env, inputs),
    isTTY: false,
  });
  const { manifests, planFile, args } = inputs;
  let code: number;
  switch (inputs.command) {
    case 'validate':
      code = await run(['validate', '-m', manifests, ...args], io());
      break;
    case 'apply':
      code = await run(['apply', '-m', manifests, '--plan', planFile, ...args], io());
      break;
    case 'plan': {
      let printed = '';
      let errors = '';
      const tee: OutputStream = { write: (chunk: string) => ((printed += chunk), streams.stdout.write(chunk)) };
      const errTee: OutputStream = { write: (chunk: string) => ((errors += chunk), streams.stderr.write(chunk)) };
      code = await run(
        ['plan', '-m', manifests, '--format', 'markdown', '--detailed-exitcode', '--out', planFile, ...args],
        io(tee, errTee),
      );
      setOutputs(env, { changes: String(code === EXIT.changesPending), 'plan-file': planFile });
      // Also when the plan failed with a plan to show (blocked objects), so the reviewer sees why.
      const plan = printed
        .split('\n')
        .filter((line) => !WORKFLOW_COMMAND.test(line))
        .join('\n');
      // A plan that failed before it had a plan to show (invalid manifests, an unknown directory, an API error)
      // says so in the comment: left alone, the comment would show an older commit's plan as this one's.
      const body = plan.trim() === '' && code === EXIT.error ? failedPlanComment(errors) : plan;
      if (inputs.comment && env.GITHUB_EVENT_NAME === 'pull_request' && body.trim() !== '') {
        if ((await comment(body, inputs, env, io())) !== EXIT.ok) code = EXIT.error;
      }
      if (code === EXIT.changesPending) {
        setOutputs(env, { 'exit-code': String(code) });
        return EXIT.ok;
      }
      break;
    }
    default:
      streams.stdout.write(
        `::error::docops action: input 'command' must be ${COMMANDS.slice(0, -1).join(', ')} or ${COMMANDS.at(-1)} (got '${escapeData(inputs.command)}')\n`,
      );
      code = EXIT.error;
  }
  setOutputs(env, { 'exit-code': String(code) });
  return code;
}

/** The comment of a plan that failed before it could show a plan: what the command said (redacted, as it printed it). */
export function failedPlanComment(stderr: string): string {
  const said = stderr
    .split('\n')
    .filter((line) => !WORKFLOW_COMMAND.test(line) && !line.startsWith('{"level"'))
    .join('\n')
    .trim();
  const text = said.length > 6000 ? `${said.slice(0, 6000)}\n…` : said || 'see the job log';
  // A fence longer than any run of backquotes in the text.
  const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `### docops plan\n\n**The plan failed**: nothing was planned for this commit.\n\n${fence}text\n${text}\n${fence}\n`;
}

/** `docops pr-comment` with the plan's markdown: the PR's one comment, found again by its marker. */
async function comment(body: string, inputs: ActionInputs, env: Env, io: CliIO): Promise<number> {
  const dir = mkdtempSync(join(env.RUNNER_TEMP || tmpdir(), 'docops-comment-'));
  try {
    const file = join(dir, 'plan.md');
    writeFileSync(file, body, 'utf8');
    return await run(['pr-comment', '--body-file', file, '--marker', inputs.commentMarker], io);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
