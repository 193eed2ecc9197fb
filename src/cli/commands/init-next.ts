/**
 * What `docops init` prints after it wrote the repository: the commands to run next — with the connection flags
 * of this run (so a sandbox trial continues on the sandbox) and git commands that make the branch the workflow
 * follows whatever the user's git defaults are — then everything the written workflow needs on GitHub (the
 * secrets, the environment), what the daemon needs when it applies, and who applies a merge.
 */
import path from 'node:path';
import { INIT_LAYOUT, type InitSetup } from '../../init/index.js';
import type { CommandContext } from '../command.js';

/** A shell word as typed: quoted when it holds anything but safe characters. */
export const sh = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** The connection flags of this run, for the commands it prints (never the token). */
function connectionFlags(ctx: CommandContext, dir: string): { plan: string; daemon: string; note?: string } {
  const g = ctx.global;
  if (g.sandboxState !== undefined) {
    const state = sh(path.relative(dir, path.resolve(g.sandboxState)) || g.sandboxState);
    return {
      plan: ` --sandbox-state ${state}`,
      daemon: ' --sandbox',
      note: "(the daemon's --sandbox is a fresh demo organization, not the state file)",
    };
  }
  if (g.sandbox) return { plan: ' --sandbox', daemon: ' --sandbox' };
  const api = g.apiUrl !== undefined ? ` --api-url ${sh(g.apiUrl)}` : '';
  const token = g.tokenFile !== undefined ? ` --token-file ${sh(path.relative(dir, path.resolve(g.tokenFile)))}` : '';
  return {
    plan: `${api}${token}`,
    daemon: api,
    ...(token ? { note: '(the daemon reads the token from DOCOPS_TOKEN or `tokenFile:` in docops.yaml)' } : {}),
  };
}

const BRANCH = 'main';

export interface NextStepsInput {
  org: string;
  dir: string;
  setup: InitSetup;
  /** DIR is inside a git work tree already (its branch is the user's; the workflow reads the default one). */
  inGit: boolean;
}

export function nextSteps(ctx: CommandContext, n: NextStepsInput): string {
  const flags = connectionFlags(ctx, n.dir);
  const applies = n.setup.applier === 'daemon';
  const daemonWhy = applies
    ? `applies each merge once approved; status page on http://127.0.0.1:8080 ${flags.note ?? ''}`
    : `reports drift on http://127.0.0.1:8080, writes nothing (the workflow applies) ${flags.note ?? ''}`;
  const commands: [string, string][] = [
    [
      `docops plan -m ${INIT_LAYOUT.manifests}${flags.plan}`,
      'No changes: the manifests describe the organization as it is',
    ],
    [`docops daemon -c ${INIT_LAYOUT.config}${flags.daemon}`, daemonWhy.trimEnd()],
  ];
  const commit = `git add -A && git commit -m ${sh(`docops: import organization ${n.org}`)}`;
  const url = n.setup.repository ? `https://github.com/${n.setup.repository}.git` : 'URL';
  const push = n.inGit
    ? ['  git push   # to its repository on GitHub']
    : [
        `  git remote add origin ${url} && git push -u origin ${BRANCH}   # ${n.setup.repository ? 'its repository' : 'URL: an empty repository'} on GitHub`,
      ];
  const width = Math.max(...commands.map(([c]) => c.length)) + 2;
  const team = n.setup.approvers ?? '';
  const repo = n.setup.repository ?? '';
  return [
    'Next:',
    ...(path.resolve(n.dir) === process.cwd() ? [] : [`  cd ${sh(n.dir)}`]),
    n.inGit ? `  ${commit}` : `  git init -b ${BRANCH} && ${commit}`,
    ...commands.map(([c, why]) => `  ${c.padEnd(width)}# ${why}`),
    `Then on GitHub, what ${INIT_LAYOUT.workflow} needs (nothing else); it plans each pull request in one comment:`,
    ...push,
    '  - repository secret DOCOPS_READ_TOKEN: a token of a member who is not an admin (plans only read)',
    ...(applies
      ? []
      : [
          "  - environment docops-production: required reviewers, who approve each apply, and its secret DOCOPS_WRITE_TOKEN: an admin's token",
        ]),
    `  - the Action it uses, ${INIT_LAYOUT.action}, is written here (\`docops init --refresh .\` renews it after an upgrade)`,
    ...(applies
      ? [
          `And the daemon, following the default branch of ${repo} (Kubernetes: deploy/kubernetes of the docops repository), with`,
          "  - DOCOPS_TOKEN: an admin's token",
          `  - DOCOPS_GITHUB_TOKEN: a GitHub token that reads ${repo}'s pull requests and the members of ${team}`,
          `Who applies: the daemon, once a member of ${team} comments the \`/docops approve sha256:…\` line of the pull`,
          "  request's plan comment (before or after the merge); drift made behind docops's back is reverted without one.",
          '  The other setup, `docops init --applier workflow`: the workflow applies (docs/getting-started.md).',
        ]
      : [
          'Who applies: the workflow, once a reviewer of docops-production approves the apply of a merge; the daemon only',
          '  reports drift. The other setup, `docops init --applier daemon`: the daemon applies after a pull-request',
          '  approval (docs/getting-started.md).',
        ]),
    '',
  ].join('\n');
}
