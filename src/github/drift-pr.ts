/**
 * The pull request that proposes drift as a manifest change (src/daemon/drift/propose.ts), through GitHub's REST
 * API: one branch, force-moved to one commit on the default branch's head; one pull request, edited in place; the
 * files read from the default branch (so the edit lands on what is there, not on the daemon's checkout), the
 * commit made with the Git Data API (a tree over the base commit's tree, a commit, the ref).
 */
import { ApiError } from '../model/errors.js';
import type { GitHub } from './client.js';

export interface Repository {
  owner: string;
  repo: string;
}

export interface PullRequest {
  number: number;
  url: string;
  state: 'open' | 'closed';
  merged: boolean;
  body: string;
}

interface PullAnswer {
  number: number;
  html_url: string;
  state: string;
  merged_at?: string | null;
  body?: string | null;
  head?: { ref?: string };
}

const asPull = (p: PullAnswer): PullRequest => ({
  number: p.number,
  url: p.html_url,
  state: p.state === 'open' ? 'open' : 'closed',
  merged: typeof p.merged_at === 'string',
  body: p.body ?? '',
});

export function repositoryOf(name: string): Repository {
  const [owner, repo] = name.split('/') as [string, string];
  return { owner, repo };
}

/** The newest pull request from `branch` (any state), or undefined. */
export async function latestPull(gh: GitHub, r: Repository, branch: string): Promise<PullRequest | undefined> {
  const { data } = await gh.request('GET /repos/{owner}/{repo}/pulls', {
    ...r,
    head: `${r.owner}:${branch}`,
    state: 'all',
    sort: 'created',
    direction: 'desc',
    per_page: 10,
  });
  const mine = (data as PullAnswer[]).filter((p) => p.head?.ref === undefined || p.head.ref === branch);
  return mine[0] ? asPull(mine[0]) : undefined;
}

/** The branch docops proposes onto: the configured one, else the repository's default branch. */
export async function baseBranch(gh: GitHub, r: Repository, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return configured;
  const { data } = await gh.request('GET /repos/{owner}/{repo}', { ...r });
  return String((data as { default_branch?: unknown }).default_branch ?? 'main');
}

/** The commit a branch points at, or undefined when there is no such branch. */
export async function branchHead(gh: GitHub, r: Repository, branch: string): Promise<string | undefined> {
  try {
    const { data } = await gh.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...r, ref: `heads/${branch}` });
    return String((data as { object: { sha: string } }).object.sha);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}

/** A file's text at a commit, or undefined when it is not there. */
export async function readFile(gh: GitHub, r: Repository, path: string, ref: string): Promise<string | undefined> {
  try {
    const { data } = await gh.request('GET /repos/{owner}/{repo}/contents/{path}', { ...r, path, ref });
    const d = data as { content?: string; encoding?: string };
    if (typeof d.content !== 'string') return undefined;
    return d.encoding === 'base64' ? Buffer.from(d.content, 'base64').toString('utf8') : d.content;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}

/** One commit on `base` that writes `files` (null: deletes the file); returns its sha. */
export async function commitFiles(
  gh: GitHub,
  r: Repository,
  base: string,
  files: ReadonlyMap<string, string | null>,
  message: string,
): Promise<string> {
  const { data: parent } = await gh.request('GET /repos/{owner}/{repo}/git/commits/{commit_sha}', {
    ...r,
    commit_sha: base,
  });
  const tree = [...files].map(([path, content]) =>
    content === null
      ? { path, mode: '100644' as const, type: 'blob' as const, sha: null }
      : { path, mode: '100644' as const, type: 'blob' as const, content },
  );
  const { data: made } = await gh.request('POST /repos/{owner}/{repo}/git/trees', {
    ...r,
    base_tree: (parent as { tree: { sha: string } }).tree.sha,
    tree,
  });
  const { data: commit } = await gh.request('POST /repos/{owner}/{repo}/git/commits', {
    ...r,
    message,
    tree: (made as { sha: string }).sha,
    parents: [base],
  });
  return (commit as { sha: string }).sha;
}

/** Point `branch` at `sha`, creating it or moving it (forced: the branch is docops's own). */
export async function moveBranch(
  gh: GitHub,
  r: Repository,
  branch: string,
  sha: string,
  exists: boolean,
): Promise<void> {
  if (exists)
    await gh.request('PATCH /repos/{owner}/{repo}/git/refs/{ref}', { ...r, ref: `heads/${branch}`, sha, force: true });
  else await gh.request('POST /repos/{owner}/{repo}/git/refs', { ...r, ref: `refs/heads/${branch}`, sha });
}

export async function deleteBranch(gh: GitHub, r: Repository, branch: string): Promise<void> {
  try {
    await gh.request('DELETE /repos/{owner}/{repo}/git/refs/{ref}', { ...r, ref: `heads/${branch}` });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
}

export async function openPull(
  gh: GitHub,
  r: Repository,
  p: { branch: string; base: string; title: string; body: string },
): Promise<PullRequest> {
  const { data } = await gh.request('POST /repos/{owner}/{repo}/pulls', {
    ...r,
    head: p.branch,
    base: p.base,
    title: p.title,
    body: p.body,
  });
  return asPull(data as PullAnswer);
}

export async function editPull(
  gh: GitHub,
  r: Repository,
  number: number,
  p: { title?: string; body?: string; state?: 'closed' },
): Promise<PullRequest> {
  const { data } = await gh.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {
    ...r,
    pull_number: number,
    ...p,
  });
  return asPull(data as PullAnswer);
}

export async function comment(gh: GitHub, r: Repository, number: number, body: string): Promise<void> {
  await gh.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...r, issue_number: number, body });
}
