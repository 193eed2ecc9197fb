/**
 * `docops init --org ID DIR`: the first step of managing an existing organization — its manifests, the daemon's
 * docops.yaml, the GitHub workflow and a .gitignore in DIR — then the commands to run next, with the flags this
 * run connected with (so a sandbox trial continues on the sandbox).
 */
import path from 'node:path';
import { UsageError, ValidationError } from '../../model/errors.js';
import { INIT_LAYOUT, initRepository } from '../../init/index.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { connect, requireCredentials } from '../connect.js';
import { countingClient, createProgress } from '../progress.js';
import { KINDS, loadManifests } from '../wiring.js';

/** A shell word as typed: quoted when it holds anything but safe characters. */
const sh = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

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

function nextSteps(ctx: CommandContext, org: string, dir: string): string {
  const flags = connectionFlags(ctx, dir);
  const commands: [string, string][] = [
    [
      `docops plan -m ${INIT_LAYOUT.manifests}${flags.plan}`,
      'No changes: the manifests describe the organization as it is',
    ],
    [
      `docops daemon -c ${INIT_LAYOUT.config}${flags.daemon}`,
      `keeps it equal to the manifests; status page on http://127.0.0.1:8080 ${flags.note ?? ''}`.trimEnd(),
    ],
  ];
  const width = Math.max(...commands.map(([c]) => c.length)) + 2;
  return [
    'Next:',
    ...(path.resolve(dir) === process.cwd() ? [] : [`  cd ${sh(dir)}`]),
    `  git init && git add -A && git commit -m ${sh(`docops: import organization ${org}`)}`,
    ...commands.map(([c, why]) => `  ${c.padEnd(width)}# ${why}`),
    '  Then push to GitHub and add the secrets the workflow uses: DOCOPS_READ_TOKEN (a repository secret) and',
    '  DOCOPS_WRITE_TOKEN (a secret of the environment docops-production, with required reviewers); every change',
    `  to ${INIT_LAYOUT.manifests}/ is then planned in its pull request and applied after approval (docs/getting-started.md).`,
    '',
  ].join('\n');
}

export const initCommand: CommandSpec = {
  name: 'init',
  usage: 'docops init --org ID DIR [--overwrite] [flags]',
  argument: 'DIR',
  description:
    "Starts a repository for an organization in DIR (created if missing): the organization's manifests as they\n" +
    `are (\`docops export\` into ${INIT_LAYOUT.manifests}/, so the first plan shows no changes), ${INIT_LAYOUT.config} for\n` +
    `\`docops daemon\`, the GitHub workflow (${INIT_LAYOUT.workflow}: validate and plan in pull requests, apply\n` +
    'after approval) and a .gitignore for the delete journal and saved plans (an existing one gains the lines it\n' +
    'lacks). Then prints the commands to run next. Existing files are not replaced unless --overwrite is given;\n' +
    'that is checked before anything is written. Only reads the API: a read-only token is enough.\n' +
    '`docops orgs` lists the organization ids the token sees.',
  flags: {
    org: { type: 'string', value: 'ID', description: 'Organization to import (`docops orgs` lists them)' },
    overwrite: {
      type: 'boolean',
      description: 'Replace docops.yaml, the workflow and the manifests of an earlier init',
    },
  },
  globals: ['api-url', 'token-file', 'sandbox', 'sandbox-state', 'concurrency'],
  examples: [
    'docops init --org org-demo my-docs --sandbox',
    'DOCOPS_TOKEN=… docops init --org $ORG_ID .',
    'docops sandbox --port 4010 --seed large:2000 &  docops init --org org-bench big --api-url http://127.0.0.1:4010/v1   # DOCOPS_TOKEN=sandbox-token',
  ],
  async run(ctx) {
    const org = ctx.values.org;
    const dir = ctx.argument;
    if (typeof org !== 'string' || org === '')
      throw new UsageError('missing --org ID (the organization to import; `docops orgs` lists those your token sees)');
    if (dir === undefined || dir === '') throw new UsageError('missing DIR (the directory to initialize, e.g. `.`)');
    requireCredentials(ctx);
    const progress = createProgress(ctx.io.stderr, `Importing ${org}`);
    const client = countingClient(await connect(ctx), () => progress.tick());
    let result;
    try {
      result = await initRepository(client, KINDS, org, dir, {
        overwrite: ctx.values.overwrite === true,
        onPass: (n) => progress.phase(`pass ${n}`),
      });
    } finally {
      progress.done();
    }
    const manifests = path.join(dir, INIT_LAYOUT.manifests);
    try {
      await loadManifests(manifests, KINDS, { env: ctx.io.env });
    } catch (err) {
      if (err instanceof ValidationError)
        ctx.logger.error(
          { dir: manifests },
          'init written, but the manifests do not validate; fix the issues below before planning',
        );
      throw err;
    }
    const documents = Object.values(result.export.counts).reduce((a, b) => a + b, 0);
    ctx.io.stdout.write(
      [
        `Initialized ${dir} for organization ${org}:`,
        `  ${manifests}/  ${result.export.files.length} files, ${documents} documents: the organization as it is`,
        ...result.export.removed.map((f) => `  removed ${f} (part of an earlier export)`),
        ...result.files.map((f) => `  ${f}`),
        '',
        nextSteps(ctx, org, dir),
      ].join('\n'),
    );
    return 0;
  },
};
