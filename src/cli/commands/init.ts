/**
 * `docops init --org ID DIR [--applier workflow|daemon]`: the first step of managing an existing organization —
 * its manifests, the daemon's docops.yaml and the GitHub workflow for who applies a merge, the Action the workflow
 * uses, the editor schemas and a .gitignore in DIR — then what to do next (init-next.ts). `--refresh DIR` renews
 * the schemas and the Action after an upgrade.
 */
import path from 'node:path';
import { UsageError, ValidationError } from '../../model/errors.js';
import { gitWorkTree } from '../../export/index.js';
import {
  APPLIERS,
  REPOSITORY_PATTERN,
  TEAM_PATTERN,
  INIT_LAYOUT,
  initRepository,
  refreshRepository,
  type Applier,
  type InitSetup,
} from '../../init/index.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { connect, requireCredentials } from '../connect.js';
import { countingClient, createProgress } from '../progress.js';
import { KINDS, loadManifests } from '../wiring.js';
import { nextSteps } from './init-next.js';

/** Who applies, and what the daemon applier needs: checked before anything is read or written. */
function setupOf(ctx: CommandContext): InitSetup {
  const applier = ctx.values.applier ?? 'workflow';
  if (typeof applier !== 'string' || !(APPLIERS as readonly string[]).includes(applier))
    throw new UsageError(`--applier: workflow or daemon (got ${String(applier)})`);
  const repository = ctx.values['github-repo'];
  const approvers = ctx.values.approvers;
  if (typeof repository === 'string' && !REPOSITORY_PATTERN.test(repository))
    throw new UsageError(`--github-repo: OWNER/NAME of the repository on GitHub (got ${repository})`);
  if (typeof approvers === 'string' && !TEAM_PATTERN.test(approvers))
    throw new UsageError(`--approvers: ORG/TEAM-SLUG of a GitHub team (got ${approvers})`);
  if (applier === 'daemon' && (typeof repository !== 'string' || typeof approvers !== 'string'))
    throw new UsageError(
      '--applier daemon needs --github-repo OWNER/NAME (the repository whose pull requests carry the approvals) and --approvers ORG/TEAM-SLUG (the GitHub team whose members approve)',
    );
  return {
    applier: applier as Applier,
    ...(typeof repository === 'string' ? { repository } : {}),
    ...(typeof approvers === 'string' ? { approvers } : {}),
  };
}

async function refresh(ctx: CommandContext, dir: string): Promise<number> {
  const files = await refreshRepository(dir);
  ctx.io.stdout.write(
    [`Refreshed ${dir} with this docops's schemas and Action:`, ...files.map((f) => `  ${f}`), ''].join('\n'),
  );
  return 0;
}

export const initCommand: CommandSpec = {
  name: 'init',
  usage: 'docops init --org ID DIR [--applier workflow|daemon] [--overwrite] [flags] | docops init --refresh DIR',
  argument: 'DIR',
  description:
    "Starts a repository for an organization in DIR (created if missing): the organization's manifests as they\n" +
    `are (\`docops export\` into ${INIT_LAYOUT.manifests}/, so the first plan shows no changes), ${INIT_LAYOUT.config} for\n` +
    `\`docops daemon\`, the GitHub workflow (${INIT_LAYOUT.workflow}: validate and plan in pull requests) with the\n` +
    `docops Action it uses (${INIT_LAYOUT.action}), the JSON Schemas the files' editor comments point at\n` +
    `(${INIT_LAYOUT.schemas}/) and a .gitignore for the delete journal and saved plans (an existing one gains the lines\n` +
    'it lacks). Who applies a merge is one choice, --applier: the workflow (default), after the reviewers of its\n' +
    'environment docops-production approve, the daemon only reporting drift; or the daemon, after a member of the\n' +
    'GitHub team --approvers comments `/docops approve` on the pull request (needs --github-repo). Then prints\n' +
    'what to do next. Existing files are not replaced unless --overwrite is given; that is checked before\n' +
    'anything is written. Only reads the API: a read-only token is enough. `docops orgs` lists the organization\n' +
    'ids the token sees. --refresh DIR renews the schemas and the Action of an earlier init (after an upgrade),\n' +
    'nothing else, without the API.',
  flags: {
    org: { type: 'string', value: 'ID', description: 'Organization to import (`docops orgs` lists them)' },
    applier: {
      type: 'string',
      value: 'WHO',
      description:
        'Who applies a merge: workflow (default: after its environment approves) or daemon (after a pull-request approval)',
    },
    'github-repo': {
      type: 'string',
      value: 'OWNER/NAME',
      description: 'The repository on GitHub (needed by --applier daemon; named in the push command)',
    },
    approvers: {
      type: 'string',
      value: 'ORG/TEAM',
      description: 'The GitHub team whose members approve (needed by --applier daemon)',
    },
    overwrite: {
      type: 'boolean',
      description: 'Replace docops.yaml, the workflow, the Action, the schemas and the manifests of an earlier init',
    },
    refresh: {
      type: 'boolean',
      description: 'Only renew the schemas and the Action in DIR from this docops (after an upgrade); no API',
    },
  },
  globals: ['api-url', 'token-file', 'sandbox', 'sandbox-state', 'concurrency'],
  examples: [
    'docops init --org org-demo my-docs --sandbox',
    'DOCOPS_TOKEN=… docops init --org $ORG_ID .',
    'DOCOPS_TOKEN=… docops init --org $ORG_ID . --applier daemon --github-repo acme/docs-org --approvers acme/docs-admins',
    'docops init --refresh .                 # after upgrading docops: its schemas and Action',
    'docops sandbox --port 4010 --seed large:2000 &  docops init --org org-bench big --api-url http://127.0.0.1:4010/v1   # DOCOPS_TOKEN=sandbox-token',
  ],
  async run(ctx) {
    const org = ctx.values.org;
    const dir = ctx.argument;
    if (dir === undefined || dir === '') throw new UsageError('missing DIR (the directory to initialize, e.g. `.`)');
    if (ctx.values.refresh === true) return refresh(ctx, dir);
    if (typeof org !== 'string' || org === '')
      throw new UsageError('missing --org ID (the organization to import; `docops orgs` lists those your token sees)');
    const setup = setupOf(ctx);
    requireCredentials(ctx);
    const progress = createProgress(ctx.io.stderr, `Importing ${org}`);
    const client = countingClient(await connect(ctx), () => progress.tick());
    let result;
    try {
      result = await initRepository(client, KINDS, org, dir, setup, {
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
        `  ${path.join(dir, INIT_LAYOUT.action)}/  the docops Action the workflow uses (${result.owned.action.length} files)`,
        `  ${path.join(dir, INIT_LAYOUT.schemas)}/  ${result.owned.schemas.length} JSON Schemas, for editors`,
        '',
        nextSteps(ctx, { org, dir, setup, inGit: gitWorkTree(dir) !== undefined }),
      ].join('\n'),
    );
    return 0;
  },
};
