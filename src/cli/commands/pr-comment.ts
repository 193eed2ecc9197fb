/**
 * `docops pr-comment --body-file plan.md`: post the markdown plan as the pull request's one docops comment, or
 * update it in place (src/github/plan-comment.ts). Made for GitHub Actions (action.yml): the repository, the
 * pull request, the API URL and the token come from the workflow's environment unless given.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../model/errors.js';
import { DEFAULT_MARKER, commentBody, markerComment, upsertPlanComment } from '../../github/plan-comment.js';
import type { CommandSpec } from '../command.js';

type Env = Readonly<Record<string, string | undefined>>;

interface WorkflowEvent {
  pull_request?: { number?: unknown; head?: { sha?: unknown } };
  issue?: { number?: unknown };
  number?: unknown;
}

async function workflowEvent(env: Env): Promise<WorkflowEvent> {
  return env.GITHUB_EVENT_PATH ? (JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8')) as WorkflowEvent) : {};
}

/** The pull request's number: --pr, else the workflow event's (pull_request, or an issue comment on a PR). */
function pullRequestNumber(flag: unknown, event: WorkflowEvent): number {
  const raw = typeof flag === 'string' ? flag : undefined;
  if (raw !== undefined) {
    if (!/^[1-9]\d*$/.test(raw)) throw new UsageError(`--pr must be a pull request number, got "${raw}"`);
    return Number(raw);
  }
  const n = event.pull_request?.number ?? event.issue?.number ?? event.number;
  if (typeof n === 'number' && Number.isSafeInteger(n) && n > 0) return n;
  throw new UsageError('no pull request: pass --pr N, or run it in a workflow triggered by pull_request');
}

/** `<sub>Commit abc1234 · [run](…)</sub>`: the PR's head commit (GITHUB_SHA is the merge commit) and the run. */
function footer(env: Env, event: WorkflowEvent): string | undefined {
  const head = event.pull_request?.head?.sha;
  const sha = typeof head === 'string' ? head : env.GITHUB_SHA;
  const run =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
  const parts = [sha ? `Commit ${sha.slice(0, 7)}` : undefined, run ? `[run](${run})` : undefined].filter(Boolean);
  return parts.length > 0 ? `<sub>${parts.join(' · ')}</sub>` : undefined;
}

export const prCommentCommand: CommandSpec = {
  name: 'pr-comment',
  usage: 'docops pr-comment --body-file FILE [--pr N] [--repo OWNER/NAME] [--marker NAME] [flags]',
  description:
    'Posts FILE (the output of `docops plan --format markdown`) as ONE comment on the pull request and updates\n' +
    'that comment on every later run: it is found again by the hidden marker <!-- NAME --> at the start of its\n' +
    "body (default docops-plan) and by its author being the token's own account — a comment with the marker by\n" +
    'anyone else is never edited, and the log names it — so a pull request never collects one comment per push.\n' +
    "A body that would pass GitHub's 65,536-character limit is cut at a line, with a note saying so. The token\n" +
    "is GITHUB_TOKEN (the workflow's token needs `pull-requests: write`), the API GITHUB_API_URL (default\n" +
    'https://api.github.com; requests go to its origin only, redirects too), the repository GITHUB_REPOSITORY\n' +
    "and the pull request the workflow event's. action.yml runs it for you.",
  flags: {
    'body-file': {
      type: 'string',
      value: 'FILE',
      description: 'The markdown to post (e.g. the output of `docops plan --format markdown`)',
    },
    pr: {
      type: 'string',
      value: 'N',
      description: 'Pull request number (default: the one the workflow event is about)',
    },
    repo: { type: 'string', value: 'OWNER/NAME', description: 'Repository (default GITHUB_REPOSITORY)' },
    marker: {
      type: 'string',
      value: 'NAME',
      description: `Hidden marker that identifies the comment (default ${DEFAULT_MARKER}; one per distinct comment)`,
    },
  },
  globals: [],
  examples: [
    'docops plan -m manifests --format markdown > plan.md; docops pr-comment --body-file plan.md',
    'GITHUB_TOKEN=… docops pr-comment --body-file plan.md --repo acme/docs-org --pr 42',
    'docops pr-comment --body-file staging.md --marker docops-plan-staging   # a second comment for another org',
  ],
  async run(ctx) {
    const { values, io } = ctx;
    const file = values['body-file'];
    if (typeof file !== 'string' || file === '')
      throw new UsageError('missing --body-file FILE (the markdown plan to post)');
    const token = io.env.GITHUB_TOKEN ?? io.env.GH_TOKEN;
    if (!token)
      throw new UsageError(
        'no GitHub token: set GITHUB_TOKEN (in a workflow: env: { GITHUB_TOKEN: ${{ github.token }} })',
      );
    ctx.addSecret(token);
    const repo = typeof values.repo === 'string' ? values.repo : io.env.GITHUB_REPOSITORY;
    const [owner, name, ...rest] = (repo ?? '').split('/');
    if (!owner || !name || rest.length > 0)
      throw new UsageError(`--repo must be OWNER/NAME (or set GITHUB_REPOSITORY), got "${repo ?? ''}"`);
    const marker = typeof values.marker === 'string' && values.marker !== '' ? values.marker : DEFAULT_MARKER;
    if (!/^[\w.-]+$/.test(marker))
      throw new UsageError(`--marker must be letters, digits, '.', '-' or '_', got "${marker}"`);
    const event = await workflowEvent(io.env);
    const issueNumber = pullRequestNumber(values.pr, event);
    const plan = await readFile(file, 'utf8');
    const foot = footer(io.env, event);
    const { body, truncated } = commentBody(plan, { marker, ...(foot ? { footer: foot } : {}) });
    if (truncated)
      ctx.logger.warn({ file, length: plan.length }, "the plan was truncated to fit GitHub's comment limit");
    const result = await upsertPlanComment({
      apiUrl: io.env.GITHUB_API_URL ?? 'https://api.github.com',
      token,
      owner,
      repo: name,
      issueNumber,
      body,
      marker,
    });
    for (const c of result.ignored) {
      ctx.logger.warn(
        { author: c.author ?? '(deleted account)', url: c.url, marker: markerComment(marker), docops: result.login },
        `ignored a comment carrying the marker by ${c.author ?? 'a deleted account'} (${c.url}): docops adopts only a comment its own account (${result.login}) wrote`,
      );
    }
    const said = {
      created: 'created the plan comment',
      updated: 'updated the plan comment',
      unchanged: 'the plan comment is up to date',
    }[result.action];
    io.stdout.write(`${said}: ${result.url}\n`);
    return 0;
  },
};
