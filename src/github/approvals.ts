/**
 * Approvals given in a pull request: a comment whose first line is `/docops approve CHECKSUM`, by an active member
 * of the approvers' team. The daemon asks for the pull requests of the manifests' commit (GitHub's
 * `GET /repos/{owner}/{repo}/commits/{sha}/pulls`), reads their comments, and checks each author who approved this
 * checksum with `GET /orgs/{org}/teams/{team_slug}/memberships/{username}` (200 and `state: active`; 404: not a
 * member). Only the exact checksum counts: a comment naming another plan approves nothing.
 */
import { ApiError } from '../model/errors.js';
import { createGitHub, type GitHub } from './client.js';

export interface PullRequestApprovalQuery {
  apiUrl: string;
  token: string;
  /** OWNER/NAME */
  repository: string;
  /** ORG/TEAM-SLUG */
  team: string;
  /** The manifests' commit. */
  commit: string;
  checksum: string;
}

export interface PullRequestApproval {
  login: string;
  url: string;
  pullRequest: number;
}

interface Comment {
  body?: string | null;
  html_url: string;
  user?: { login?: string } | null;
}

const MAX_PULLS = 5;
const COMMAND = /^\/docops approve (sha256:[0-9a-f]{64})[ \t]*$/;

/** The checksum a comment approves (its first line), or undefined. */
export function approvedChecksum(body: string): string | undefined {
  return COMMAND.exec(body.trimStart().split(/\r?\n/, 1)[0]!.trimEnd())?.[1];
}

export async function findPullRequestApproval(
  q: PullRequestApprovalQuery,
  github?: GitHub,
): Promise<PullRequestApproval | undefined> {
  const gh = github ?? (await createGitHub(q.apiUrl, q.token));
  const [owner, repo] = q.repository.split('/') as [string, string];
  const [org, teamSlug] = q.team.split('/') as [string, string];
  const { data: pulls } = await gh.request('GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls', {
    owner,
    repo,
    commit_sha: q.commit,
  });
  const checked = new Map<string, boolean>();
  for (const pull of (pulls as { number: number }[]).slice(0, MAX_PULLS)) {
    const comments = (await gh.paginate('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner,
      repo,
      issue_number: pull.number,
      per_page: 100,
    })) as Comment[];
    for (const c of comments) {
      const login = c.user?.login;
      if (login === undefined || approvedChecksum(c.body ?? '') !== q.checksum) continue;
      let member = checked.get(login.toLowerCase());
      if (member === undefined)
        checked.set(login.toLowerCase(), (member = await isActiveMember(gh, org, teamSlug, login)));
      if (member) return { login, url: c.html_url, pullRequest: pull.number };
    }
  }
  return undefined;
}

async function isActiveMember(gh: GitHub, org: string, teamSlug: string, username: string): Promise<boolean> {
  try {
    const { data } = await gh.request('GET /orgs/{org}/teams/{team_slug}/memberships/{username}', {
      org,
      team_slug: teamSlug,
      username,
    });
    return (data as { state?: unknown }).state === 'active';
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    throw err;
  }
}
