/**
 * A repository inside the GitHub stand-in (fake-github.ts): branches, commits and trees held in memory, and the
 * REST routes docops's drift proposals call — the repository's default branch, a ref, a file's contents at a
 * commit, a tree over a base tree, a commit, creating, moving and deleting a ref, and pull requests (list by head,
 * open, edit, comment). Tests act as people do: commit to a branch, merge or close a pull request.
 */
import { createHash } from 'node:crypto';

type Files = Map<string, string>;

export interface FakePull {
  number: number;
  head: string;
  base: string;
  title: string;
  body: string;
  state: 'open' | 'closed';
  merged_at: string | null;
  /** The branch's commit when merged or closed (the branch may move or go later). */
  headSha?: string;
  comments: string[];
}

export type RepoAnswer = { status: number; body?: unknown };

const sha = (x: unknown): string => createHash('sha1').update(JSON.stringify(x)).digest('hex');

export class FakeRepo {
  readonly refs = new Map<string, string>();
  readonly pulls: FakePull[] = [];
  private readonly commits = new Map<string, { tree: string; parents: string[]; message: string }>();
  private readonly trees = new Map<string, Files>();
  private seq = 0;

  constructor(
    readonly owner: string,
    readonly repo: string,
    files: Record<string, string>,
    readonly defaultBranch = 'main',
  ) {
    this.refs.set(defaultBranch, this.commit(this.tree(new Map(Object.entries(files))), [], 'initial'));
  }

  private tree(files: Files): string {
    const id = sha([...files].sort());
    this.trees.set(id, new Map(files));
    return id;
  }

  private commit(tree: string, parents: string[], message: string): string {
    const id = sha([tree, parents, message, this.seq++]);
    this.commits.set(id, { tree, parents, message });
    return id;
  }

  /** The files of a branch (or commit). */
  files(refOrSha: string): Files {
    const c = this.commits.get(this.refs.get(refOrSha) ?? refOrSha);
    return new Map(c ? this.trees.get(c.tree) : []);
  }

  /** Someone pushes to `branch`: `files` written (null: deleted). */
  push(branch: string, files: Record<string, string | null>, message = 'edit'): string {
    const next = this.files(branch);
    for (const [p, c] of Object.entries(files))
      if (c === null) next.delete(p);
      else next.set(p, c);
    const id = this.commit(this.tree(next), [this.refs.get(branch)!], message);
    this.refs.set(branch, id);
    return id;
  }

  /** Merge a pull request: its changes over the base branch's head (a merge commit). */
  merge(number: number): void {
    const p = this.pulls.find((x) => x.number === number)!;
    const head = this.refs.get(p.head)!;
    const parent = this.commits.get(head)!.parents[0]!;
    const before = this.files(parent);
    const after = this.files(head);
    const changes: Record<string, string | null> = {};
    for (const [f, c] of after) if (before.get(f) !== c) changes[f] = c;
    for (const f of before.keys()) if (!after.has(f)) changes[f] = null;
    this.push(p.base, changes, `Merge pull request #${number}`);
    Object.assign(p, { state: 'closed', merged_at: new Date().toISOString(), headSha: head });
  }

  close(number: number): void {
    const p = this.pulls.find((x) => x.number === number)!;
    Object.assign(p, { state: 'closed', headSha: this.refs.get(p.head) });
  }

  private shown(p: FakePull): object {
    const { comments: _c, head, base, headSha, ...rest } = p;
    return {
      ...rest,
      html_url: `https://github.test/${this.owner}/${this.repo}/pull/${p.number}`,
      head: { ref: head, sha: headSha ?? this.refs.get(head) ?? null },
      base: { ref: base },
    };
  }

  /** The answer to a request on this repository, or undefined when the route is not one of it. */
  handle(
    method: string,
    pathname: string,
    query: URLSearchParams,
    input: Record<string, unknown>,
  ): RepoAnswer | undefined {
    const prefix = `/repos/${this.owner}/${this.repo}`;
    if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return undefined;
    const rest = decodeURIComponent(pathname.slice(prefix.length));
    if (rest === '' && method === 'GET')
      return { status: 200, body: { default_branch: this.defaultBranch, full_name: `${this.owner}/${this.repo}` } };
    const ref = /^\/git\/refs?\/heads\/(.+)$/.exec(rest);
    if (ref && method === 'GET')
      return this.refs.has(ref[1]!)
        ? {
            status: 200,
            body: { ref: `refs/heads/${ref[1]}`, object: { sha: this.refs.get(ref[1]!), type: 'commit' } },
          }
        : { status: 404, body: { message: 'Not Found' } };
    if (ref && method === 'PATCH') {
      if (!this.refs.has(ref[1]!)) return { status: 422, body: { message: 'Reference does not exist' } };
      if (!this.commits.has(String(input['sha']))) return { status: 422, body: { message: 'Object does not exist' } };
      this.refs.set(ref[1]!, String(input['sha']));
      return { status: 200, body: { ref: `refs/heads/${ref[1]}`, object: { sha: input['sha'] } } };
    }
    if (ref && method === 'DELETE')
      return this.refs.delete(ref[1]!)
        ? { status: 204 }
        : { status: 422, body: { message: 'Reference does not exist' } };
    if (rest === '/git/refs' && method === 'POST') {
      const name = String(input['ref']).replace(/^refs\/heads\//, '');
      if (this.refs.has(name)) return { status: 422, body: { message: 'Reference already exists' } };
      this.refs.set(name, String(input['sha']));
      return { status: 201, body: { ref: input['ref'], object: { sha: input['sha'] } } };
    }
    const contents = /^\/contents\/(.+)$/.exec(rest);
    if (contents && method === 'GET') {
      const text = this.files(query.get('ref') ?? this.defaultBranch).get(contents[1]!);
      return text === undefined
        ? { status: 404, body: { message: 'Not Found' } }
        : {
            status: 200,
            body: { path: contents[1], encoding: 'base64', content: Buffer.from(text).toString('base64') },
          };
    }
    const commit = /^\/git\/commits\/([0-9a-f]{40})$/.exec(rest);
    if (commit && method === 'GET') {
      const c = this.commits.get(commit[1]!);
      return c
        ? {
            status: 200,
            body: {
              sha: commit[1],
              tree: { sha: c.tree },
              parents: c.parents.map((p) => ({ sha: p })),
              message: c.message,
            },
          }
        : { status: 404, body: { message: 'Not Found' } };
    }
    if (rest === '/git/trees' && method === 'POST') {
      const files = new Map(this.trees.get(String(input['base_tree'])) ?? []);
      for (const e of input['tree'] as { path: string; content?: string; sha?: null }[]) {
        if (e.sha === null) files.delete(e.path);
        else files.set(e.path, e.content ?? '');
      }
      return { status: 201, body: { sha: this.tree(files) } };
    }
    if (rest === '/git/commits' && method === 'POST') {
      if (!this.trees.has(String(input['tree']))) return { status: 422, body: { message: 'Tree does not exist' } };
      return {
        status: 201,
        body: { sha: this.commit(String(input['tree']), input['parents'] as string[], String(input['message'])) },
      };
    }
    if (rest === '/pulls' && method === 'GET') {
      const head = query.get('head')?.split(':')[1];
      const state = query.get('state') ?? 'open';
      const list = this.pulls
        .filter((p) => (head === undefined || p.head === head) && (state === 'all' || p.state === state))
        .sort((a, b) => b.number - a.number);
      return { status: 200, body: list.map((p) => this.shown(p)) };
    }
    if (rest === '/pulls' && method === 'POST') {
      const head = String(input['head']);
      if (!this.refs.has(head)) return { status: 422, body: { message: 'Validation Failed: head does not exist' } };
      if (this.pulls.some((p) => p.head === head && p.state === 'open'))
        return { status: 422, body: { message: `A pull request already exists for ${this.owner}:${head}.` } };
      const p: FakePull = {
        number: this.pulls.length + 1,
        head,
        base: String(input['base']),
        title: String(input['title']),
        body: String(input['body'] ?? ''),
        state: 'open',
        merged_at: null,
        comments: [],
      };
      this.pulls.push(p);
      return { status: 201, body: this.shown(p) };
    }
    const pull = /^\/pulls\/(\d+)$/.exec(rest);
    if (pull && method === 'PATCH') {
      const p = this.pulls.find((x) => x.number === Number(pull[1]));
      if (!p) return { status: 404, body: { message: 'Not Found' } };
      if (typeof input['title'] === 'string') p.title = input['title'];
      if (typeof input['body'] === 'string') p.body = input['body'];
      if (input['state'] === 'closed') this.close(p.number);
      return { status: 200, body: this.shown(p) };
    }
    const comments = /^\/issues\/(\d+)\/comments$/.exec(rest);
    const commented = comments && this.pulls.find((x) => x.number === Number(comments[1]));
    if (commented && method === 'POST') {
      commented.comments.push(String(input['body']));
      return { status: 201, body: { id: commented.comments.length, body: input['body'] } };
    }
    return undefined;
  }
}
