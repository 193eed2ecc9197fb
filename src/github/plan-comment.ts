/**
 * The plan as ONE pull-request comment, updated in place: found again by a hidden marker at the start of its
 * body AND its author being the token's own account (identity.ts), edited on every push, created only when there
 * is none. Anyone who can comment can post the marker: such a comment is never edited nor read as docops's (it
 * could later be edited to say "No changes"); it is returned in `ignored` for the job log. GitHub rejects
 * comments over 65,536 characters: a longer body is cut at a line and says so.
 */
import { createGitHub } from './client.js';
import { isLogin, tokenLogin } from './identity.js';

export const GITHUB_COMMENT_LIMIT = 65_536;
export const DEFAULT_MARKER = 'docops-plan';

export const markerComment = (name: string): string => `<!-- ${name} -->`;

export const TRUNCATED_NOTE =
  "> **Note:** the plan was truncated to fit GitHub's 65,536-character comment limit. The full plan is in the job summary and the run's log (`docops plan --format text`).";

/** The comment's body: marker, plan, footer; cut at a line (with TRUNCATED_NOTE) when it would exceed the limit. */
export function commentBody(
  plan: string,
  options: { marker: string; footer?: string; limit?: number },
): { body: string; truncated: boolean } {
  const limit = options.limit ?? GITHUB_COMMENT_LIMIT;
  const head = `${markerComment(options.marker)}\n`;
  const tail = options.footer ? `\n${options.footer}\n` : '';
  const whole = head + plan.trimEnd() + '\n' + tail;
  if (whole.length <= limit) return { body: whole, truncated: false };
  const note = `\n…\n\n${TRUNCATED_NOTE}\n`;
  const room = limit - head.length - tail.length - note.length;
  if (room < 0) throw new Error(`the comment limit ${limit} leaves no room for the plan`);
  const cut = plan.slice(0, room);
  const atLine = cut.lastIndexOf('\n');
  return { body: head + (atLine > 0 ? cut.slice(0, atLine) : cut) + note + tail, truncated: true };
}

export interface UpsertInput {
  /** https://api.github.com, or GITHUB_API_URL (GitHub Enterprise, a test server). */
  apiUrl: string;
  token: string;
  owner: string;
  repo: string;
  issueNumber: number;
  body: string;
  marker: string;
}

/** A comment with the marker by another author: left alone. `author` is undefined for a deleted account. */
export interface IgnoredComment {
  author: string | undefined;
  url: string;
}

export interface UpsertResult {
  action: 'created' | 'updated' | 'unchanged';
  id: number;
  url: string;
  /** The token's account: the author docops's comment has. */
  login: string;
  ignored: IgnoredComment[];
}

interface Comment {
  id: number;
  body?: string | null;
  html_url: string;
  user?: { login?: string } | null;
}

export async function upsertPlanComment(input: UpsertInput): Promise<UpsertResult> {
  const github = await createGitHub(input.apiUrl, input.token);
  const where = { owner: input.owner, repo: input.repo, issue_number: input.issueNumber };
  const marker = markerComment(input.marker);
  const [login, comments] = await Promise.all([
    tokenLogin(github),
    github.paginate('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...where, per_page: 100 }) as Promise<
      Comment[]
    >,
  ]);
  const marked = comments.filter((c) => (c.body ?? '').startsWith(marker));
  const own = (c: Comment): boolean => isLogin(c.user?.login ?? undefined, login);
  const ignored = marked.filter((c) => !own(c)).map((c) => ({ author: c.user?.login ?? undefined, url: c.html_url }));
  const seen = { login, ignored };
  const previous = marked.find(own);
  if (previous && previous.body === input.body)
    return { action: 'unchanged', id: previous.id, url: previous.html_url, ...seen };
  if (previous) {
    const { data } = await github.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
      owner: input.owner,
      repo: input.repo,
      comment_id: previous.id,
      body: input.body,
    });
    return { action: 'updated', id: Number(data.id), url: data.html_url, ...seen };
  }
  const { data } = await github.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
    ...where,
    body: input.body,
  });
  return { action: 'created', id: Number(data.id), url: data.html_url, ...seen };
}
