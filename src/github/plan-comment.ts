/**
 * The plan as ONE pull-request comment, updated in place: found again by a hidden marker at the start of its
 * body, edited on every push, created only when there is none. GitHub rejects comments over 65,536 characters:
 * a longer body is cut at a line and says so. The GitHub client (@octokit/core with its paginate plugin) is
 * imported here, on first use, so only `docops pr-comment` loads it.
 */

export const GITHUB_COMMENT_LIMIT = 65_536;
export const DEFAULT_MARKER = 'docops-plan';

export const markerComment = (name: string): string => `<!-- ${name} -->`;

export const TRUNCATED_NOTE =
  '> **Note:** the plan was truncated to fit GitHub\'s 65,536-character comment limit. The full plan is in the job summary and the run\'s log (`docops plan --format text`).';

/** The comment's body: marker, plan, footer; cut at a line (with TRUNCATED_NOTE) when it would exceed the limit. */
export function commentBody(plan: string, options: { marker: string; footer?: string; limit?: number }): { body: string; truncated: boolean } {
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

export interface UpsertResult {
  action: 'created' | 'updated' | 'unchanged';
  id: number;
  url: string;
}

interface Comment {
  id: number;
  body?: string | null;
  html_url: string;
}

export async function upsertPlanComment(input: UpsertInput): Promise<UpsertResult> {
  const [{ Octokit }, { paginateRest }] = await Promise.all([import('@octokit/core'), import('@octokit/plugin-paginate-rest')]);
  const GitHub = Octokit.plugin(paginateRest);
  const github = new GitHub({ auth: input.token, baseUrl: input.apiUrl.replace(/\/+$/, ''), userAgent: 'docops' });
  const where = { owner: input.owner, repo: input.repo, issue_number: input.issueNumber };
  const marker = markerComment(input.marker);
  const comments = (await github.paginate('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...where, per_page: 100 })) as Comment[];
  const previous = comments.find((c) => (c.body ?? '').startsWith(marker));
  if (previous && previous.body === input.body) return { action: 'unchanged', id: previous.id, url: previous.html_url };
  if (previous) {
    const { data } = await github.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { owner: input.owner, repo: input.repo, comment_id: previous.id, body: input.body });
    return { action: 'updated', id: Number(data.id), url: data.html_url };
  }
  const { data } = await github.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...where, body: input.body });
  return { action: 'created', id: Number(data.id), url: data.html_url };
}
