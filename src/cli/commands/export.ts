/** `docops export`: write manifests for an organization from its live state, so it can be managed by docops. */
import { UsageError, ValidationError } from '../../model/errors.js';
import { exportOrganization, findEditorSchema } from '../../export/index.js';
import type { CommandSpec } from '../command.js';
import { connect, requireCredentials } from '../connect.js';
import { countingClient, createProgress } from '../progress.js';
import { KINDS, loadManifests } from '../wiring.js';

export const exportCommand: CommandSpec = {
  name: 'export',
  usage: 'docops export --org ID -o DIR [--overwrite] [flags]',
  description:
    'Reads the organization through the API and writes one manifest file per kind into DIR (organization.yaml,\n' +
    'members.yaml, teams.yaml, translations.yaml, …; sites one file each under sites/). Every file stays under\n' +
    "1 MiB, half the loader's limit: a kind that does not fit is spread over members-001.yaml, members-002.yaml …\n" +
    'Ids are pinned where identity needs them and defaults are left out, so `docops plan -m DIR` against the\n' +
    'same organization shows no changes. Each file starts with the editor-schema comment when the repository\n' +
    "has docops's schemas (schemas/ at or above DIR, as `docops init` writes them). Existing files are\n" +
    'not replaced unless --overwrite is given, which also removes the parts of an earlier export this one does\n' +
    'not write. Only reads: a read-only token is enough. The written manifests are validated; live state\n' +
    'docops cannot express is reported and exits 1.',
  flags: {
    org: { type: 'string', value: 'ID', description: 'Organization id to export' },
    output: {
      type: 'string',
      short: 'o',
      value: 'DIR',
      description: 'Directory to write the manifests into (created if missing)',
    },
    overwrite: {
      type: 'boolean',
      description: 'Replace files that already exist in DIR (and remove stale parts of an earlier export)',
    },
  },
  // --concurrency bounds the reads; --prune and --invite mean nothing to an export.
  globals: ['api-url', 'token-file', 'sandbox', 'sandbox-state', 'concurrency'],
  examples: [
    'docops export --org org-demo -o manifests --sandbox',
    'DOCOPS_TOKEN=… docops export --org $ORG_ID -o manifests',
    'docops export --org $ORG_ID -o manifests --overwrite   # refresh an earlier export',
  ],
  async run(ctx) {
    const org = ctx.values.org;
    const out = ctx.values.output;
    if (typeof org !== 'string' || org === '') throw new UsageError('missing --org ID (the organization to export)');
    if (typeof out !== 'string' || out === '') throw new UsageError('missing -o DIR (where to write the manifests)');
    requireCredentials(ctx);
    const progress = createProgress(ctx.io.stderr, `Exporting ${org}`);
    const client = countingClient(await connect(ctx), () => progress.tick());
    const schema = findEditorSchema(out);
    let result;
    try {
      result = await exportOrganization(client, KINDS, org, out, {
        overwrite: ctx.values.overwrite === true,
        ...(schema !== undefined ? { schema } : {}),
        onPass: (n) => progress.phase(`pass ${n}`),
      });
    } finally {
      progress.done();
    }
    for (const file of result.files) ctx.io.stdout.write(`wrote ${file}\n`);
    for (const file of result.removed) ctx.io.stdout.write(`removed ${file} (part of an earlier export)\n`);
    // Live state docops cannot express gives manifests that do not load: say so.
    try {
      await loadManifests(out, KINDS, { env: ctx.io.env });
    } catch (err) {
      if (err instanceof ValidationError)
        ctx.logger.error(
          { dir: out },
          'export written, but the manifests do not validate; fix the issues below before planning',
        );
      throw err;
    }
    const unknown = Object.entries(result.unknown);
    if (unknown.length > 0)
      ctx.io.stderr.write(
        `Left out ${unknown.map(([kind, n]) => `${n} in ${kind}`).join(', ')}: values docops does not know (a newer API's?); each is a comment where it was, and docops leaves it as it is.\n`,
      );
    const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
    ctx.logger.info(
      {
        org,
        dir: out,
        documents: total,
        ...result.counts,
        editorSchema: schema ?? 'none (docops init writes schemas/)',
      },
      'export written',
    );
    if (result.files.length === 0) ctx.io.stderr.write(`Nothing to export from ${org}.\n`);
    return 0;
  },
};
