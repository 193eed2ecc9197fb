/**
 * A stand-in for the GitHub Actions runner, enough to run docops's workflows as written (the file `docops init`
 * writes, unchanged) against a git repository on disk (the stand-in for the repository on GitHub):
 * - the workflow file is read at the event's commit; `on:` with `branches` and `paths` filters decides whether it
 *   runs (paths against the files the push or the pull request changed);
 * - jobs run in `needs` order; job and step `if:` (workflow-expressions.ts), `${{ }}` in `with:` and job
 *   `outputs:`, repository secrets, and an `environment:`'s secrets once the test, as its required reviewer,
 *   approves the job (a job the reviewer rejects fails, as on GitHub);
 * - the steps docops's workflows use: actions/checkout (a clone at the event's commit), a local JavaScript action
 *   (`uses: ./path`: node runs its action.yml's `runs.main` with every input as INPUT_<NAME>, defaults filled in,
 *   and the outputs read back from $GITHUB_OUTPUT), actions/upload-artifact and actions/download-artifact (a
 *   directory per run).
 * Anything else (`run:`, another action, an expression it cannot read) throws: the runner says what it does not
 * know rather than skipping it. `permissions`, `concurrency` and `runs-on` are not enforced.
 */
import { execFileSync, execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parse } from 'yaml';
import { condition, interpolate, type Context } from './workflow-expressions.js';

export type WorkflowEvent =
  | { name: 'push'; branch: string; before: string; after: string }
  | { name: 'pull_request'; number: number; head: string; base: string };

export interface RunnerOptions {
  /** The repository: a git directory (bare) standing in for GitHub's, its OWNER/NAME and default branch. */
  remote: string;
  repository: string;
  defaultBranch: string;
  secrets: Record<string, string>;
  /** Per environment: its secrets, and the required reviewer's decision on a job that waits for it. */
  environments: Record<string, { secrets: Record<string, string>; review(job: string): Promise<boolean> }>;
  /** The job's GITHUB_TOKEN, and where the GitHub API is. */
  githubToken: string;
  githubApiUrl: string;
  /** The runner machine's environment besides GitHub's variables (e.g. where the management API is). */
  env: Record<string, string>;
  /** Where runs keep their workspaces and artifacts. */
  scratch: string;
}

export interface StepResult {
  uses: string;
  outcome: 'success' | 'failure' | 'skipped';
  outputs: Record<string, string>;
  stdout: string;
  stderr: string;
}

export interface JobResult {
  result: 'success' | 'failure' | 'skipped';
  outputs: Record<string, string>;
  steps: StepResult[];
  /** The environment it waited for, and whether its reviewer approved. */
  environment?: { name: string; approved: boolean };
}

export interface WorkflowRun {
  /** Whether the event started the workflow at all (its `on:` filters). */
  triggered: boolean;
  jobs: Record<string, JobResult>;
}

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  environment?: string | { name: string };
  outputs?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, { branches?: string[]; paths?: string[] } | null>;
  jobs: Record<string, Job>;
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** A workflow glob (`manifests/**`, `*.yml`) as a regular expression over a repository path. */
export function globRegex(glob: string): RegExp {
  if (glob.startsWith('!')) throw new Error(`the stand-in runner does not read negated filters: ${glob}`);
  const body = glob
    .split(/(\*\*\/?|\*|\?)/)
    .map((part) => {
      if (part === '**/') return '(?:.*/)?';
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      if (part === '?') return '[^/]';
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${body}$`);
}

let runs = 0;

export async function runWorkflow(file: string, event: WorkflowEvent, o: RunnerOptions): Promise<WorkflowRun> {
  const runId = String(++runs);
  const runDir = mkdtempSync(join(o.scratch, `run-${runId}-`));
  const sha = git(o.remote, 'rev-parse', event.name === 'push' ? event.after : `refs/heads/${event.head}`);
  const workflow = parse(git(o.remote, 'show', `${sha}:${file}`)) as Workflow;
  const [owner] = o.repository.split('/');
  const repository = { full_name: o.repository, default_branch: o.defaultBranch, owner: { login: owner } };
  const payload =
    event.name === 'push'
      ? { ref: `refs/heads/${event.branch}`, before: event.before, after: event.after, repository }
      : {
          number: event.number,
          pull_request: {
            number: event.number,
            head: { ref: event.head, sha, repo: { full_name: o.repository } },
            base: { ref: event.base, sha: git(o.remote, 'rev-parse', `refs/heads/${event.base}`), repo: repository },
          },
          repository,
        };
  const ref = event.name === 'push' ? `refs/heads/${event.branch}` : `refs/pull/${event.number}/merge`;
  const github = {
    event_name: event.name,
    event: payload,
    ref,
    ref_name: event.name === 'push' ? event.branch : `${event.number}/merge`,
    sha,
    repository: o.repository,
    token: o.githubToken,
  };
  if (!triggered(workflow, event, o.remote, sha)) return { triggered: false, jobs: {} };
  const eventFile = join(runDir, 'event.json');
  writeFileSync(eventFile, JSON.stringify(payload));
  const artifacts = join(runDir, 'artifacts');
  const jobs: Record<string, JobResult> = {};
  for (const name of jobOrder(workflow.jobs)) {
    const job = workflow.jobs[name]!;
    const needs = [job.needs ?? []].flat();
    const needsContext = Object.fromEntries(
      needs.map((n) => [n, { result: jobs[n]!.result, outputs: jobs[n]!.outputs }]),
    );
    const context: Context = { github, needs: needsContext, secrets: o.secrets, steps: {} };
    if (!condition(job.if, context, { success: needs.every((n) => jobs[n]!.result === 'success') })) {
      jobs[name] = { result: 'skipped', outputs: {}, steps: [] };
      continue;
    }
    const env = typeof job.environment === 'string' ? job.environment : job.environment?.name;
    let environment: JobResult['environment'];
    if (env !== undefined) {
      const protection = o.environments[env];
      if (!protection) throw new Error(`job ${name} uses the environment ${env}, which the test did not create`);
      environment = { name: env, approved: await protection.review(name) };
      if (!environment.approved) {
        jobs[name] = { result: 'failure', outputs: {}, steps: [], environment };
        continue;
      }
      context.secrets = { ...o.secrets, ...protection.secrets };
    }
    const workspace = mkdtempSync(join(runDir, `${name}-`));
    const base = { o, workspace, artifacts, eventFile, github, runDir };
    const steps: StepResult[] = [];
    let ok = true;
    for (const step of job.steps) {
      if (!condition(step.if, context, { success: ok })) {
        steps.push({ uses: step.uses ?? '', outcome: 'skipped', outputs: {}, stdout: '', stderr: '' });
        continue;
      }
      const inputs = Object.fromEntries(
        Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(String(v), context, { success: ok })]),
      );
      const result = await runStep(step, inputs, base);
      steps.push(result);
      if (step.id !== undefined)
        (context.steps as Record<string, unknown>)[step.id] = { outputs: result.outputs, outcome: result.outcome };
      if (result.outcome === 'failure') ok = false;
    }
    const outputs = Object.fromEntries(
      Object.entries(job.outputs ?? {}).map(([k, v]) => [k, interpolate(v, context, { success: ok })]),
    );
    jobs[name] = { result: ok ? 'success' : 'failure', outputs, steps, ...(environment ? { environment } : {}) };
  }
  return { triggered: true, jobs };
}

function triggered(workflow: Workflow, event: WorkflowEvent, remote: string, sha: string): boolean {
  if (!(event.name in workflow.on)) return false;
  const filter = workflow.on[event.name] ?? {};
  const branch = event.name === 'push' ? event.branch : event.base;
  if (filter.branches && !filter.branches.some((b) => globRegex(b).test(branch))) return false;
  if (!filter.paths) return true;
  const changed =
    event.name === 'push'
      ? /^0+$/.test(event.before)
        ? git(remote, 'ls-tree', '-r', '--name-only', sha)
        : git(remote, 'diff', '--name-only', event.before, sha)
      : git(remote, 'diff', '--name-only', `refs/heads/${event.base}...${sha}`);
  const patterns = filter.paths.map(globRegex);
  return changed.split('\n').some((f) => f !== '' && patterns.some((p) => p.test(f)));
}

function jobOrder(jobs: Record<string, Job>): string[] {
  const order: string[] = [];
  const visit = (name: string, path: string[]): void => {
    if (order.includes(name)) return;
    if (path.includes(name)) throw new Error(`jobs need each other: ${[...path, name].join(' → ')}`);
    for (const n of [jobs[name]!.needs ?? []].flat()) visit(n, [...path, name]);
    order.push(name);
  };
  for (const name of Object.keys(jobs)) visit(name, []);
  return order;
}

interface StepBase {
  o: RunnerOptions;
  workspace: string;
  artifacts: string;
  eventFile: string;
  runDir: string;
  github: { event_name: string; ref: string; ref_name: string; sha: string; repository: string };
}

let stepCount = 0;

async function runStep(step: Step, inputs: Record<string, string>, b: StepBase): Promise<StepResult> {
  const done = (outcome: StepResult['outcome'], more: Partial<StepResult> = {}): StepResult => ({
    uses: step.uses ?? '',
    outcome,
    outputs: {},
    stdout: '',
    stderr: '',
    ...more,
  });
  const uses = step.uses;
  if (uses === undefined) throw new Error(`the stand-in runner does not run \`run:\` steps (${step.run ?? ''})`);
  if (/^actions\/checkout@v\d+$/.test(uses)) {
    git(b.runDir, 'clone', '--quiet', b.o.remote, b.workspace);
    git(b.workspace, '-c', 'advice.detachedHead=false', 'checkout', '--quiet', b.github.sha);
    return done('success');
  }
  if (/^actions\/upload-artifact@v\d+$/.test(uses)) {
    const from = join(b.workspace, inputs['path'] ?? '');
    if (!existsSync(from)) return done(inputs['if-no-files-found'] === 'error' ? 'failure' : 'success');
    const to = join(b.artifacts, inputs['name'] ?? 'artifact');
    mkdirSync(to, { recursive: true });
    cpSync(from, join(to, posix.basename(inputs['path']!.replace(/\/$/, ''))), { recursive: true });
    return done('success');
  }
  if (/^actions\/download-artifact@v\d+$/.test(uses)) {
    const from = join(b.artifacts, inputs['name'] ?? 'artifact');
    if (!existsSync(from)) return done('failure', { stderr: `no artifact ${inputs['name']}` });
    cpSync(from, join(b.workspace, inputs['path'] ?? ''), { recursive: true });
    return done('success');
  }
  if (uses.startsWith('./')) return runLocalAction(uses, inputs, b);
  throw new Error(`the stand-in runner does not run uses: ${uses}`);
}

interface ActionYml {
  inputs?: Record<string, { default?: string }>;
  runs: { using: string; main: string };
}

/** A JavaScript action from the workspace, as the runner runs it: node on runs.main, inputs as INPUT_<NAME>. */
function runLocalAction(uses: string, given: Record<string, string>, b: StepBase): Promise<StepResult> {
  const actionDir = join(b.workspace, uses);
  const action = parse(readFileSync(join(actionDir, 'action.yml'), 'utf8')) as ActionYml;
  if (!/^node\d+$/.test(action.runs.using)) throw new Error(`${uses}: runs.using ${action.runs.using} is not node`);
  const unknown = Object.keys(given).filter((k) => !(k in (action.inputs ?? {})));
  if (unknown.length > 0) throw new Error(`${uses} has no input ${unknown.join(', ')}`);
  const n = ++stepCount;
  const output = join(b.runDir, `output-${n}`);
  const summary = join(b.runDir, `summary-${n}`);
  const temp = join(b.runDir, `temp-${n}`);
  writeFileSync(output, '');
  writeFileSync(summary, '');
  mkdirSync(temp);
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs ?? {})) {
    const value = given[name] ?? (spec.default === '${{ github.token }}' ? b.o.githubToken : (spec.default ?? ''));
    inputs[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...b.o.env,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: b.github.event_name,
    GITHUB_EVENT_PATH: b.eventFile,
    GITHUB_REPOSITORY: b.github.repository,
    GITHUB_REF: b.github.ref,
    GITHUB_REF_NAME: b.github.ref_name,
    GITHUB_SHA: b.github.sha,
    GITHUB_RUN_ID: String(n),
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: b.o.githubApiUrl,
    GITHUB_WORKSPACE: b.workspace,
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_ACTION_PATH: actionDir,
    RUNNER_TEMP: temp,
    ...inputs,
  };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(actionDir, action.runs.main)],
      { cwd: b.workspace, env, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) =>
        resolve({
          uses,
          outcome: err ? 'failure' : 'success',
          outputs: readOutputs(output),
          stdout,
          stderr,
        }),
    );
  });
}

/** $GITHUB_OUTPUT as the runner reads it: `name=value` lines and `name<<DELIMITER` … `DELIMITER` blocks. */
export function readOutputs(file: string): Record<string, string> {
  const lines = readFileSync(file, 'utf8').split('\n');
  const outputs: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      outputs[block[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  return outputs;
}
