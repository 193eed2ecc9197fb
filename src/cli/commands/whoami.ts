/** `docops whoami`: who the token belongs to and what it may do, from reads only. */
import { UsageError } from '../../model/errors.js';
import { inspectToken } from '../../connect/token.js';
import { renderTokenReport } from '../../connect/render.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { connect } from '../connect.js';

export const OUTPUT_FORMAT_FLAG = {
  type: 'string',
  value: 'FORMAT',
  description: 'Output format: text|json (default text)',
} as const;

export function outputFormat(ctx: CommandContext): 'text' | 'json' {
  const raw = ctx.values.format ?? 'text';
  if (raw !== 'text' && raw !== 'json') throw new UsageError(`--format must be text or json, got "${String(raw)}"`);
  return raw;
}

export const whoamiCommand: CommandSpec = {
  name: 'whoami',
  usage: 'docops whoami [--org ID] [--format text|json] [flags]',
  description:
    'Says who the token belongs to (GET /user), which organizations it sees (GET /orgs) and, in each, its\n' +
    "user's role and whether the API says it is an admin: an admin's token can apply, any other can plan and\n" +
    'export. A read the API refuses (403) is listed with the OAuth scope the official spec gives it, and the\n' +
    'command exits 1. The API does not tell which scopes a token carries; whoami says so rather than guess,\n' +
    'and never writes to find out. Only reads: any token works.',
  flags: {
    org: { type: 'string', value: 'ID', description: 'Only this organization' },
    format: OUTPUT_FORMAT_FLAG,
  },
  globals: ['api-url', 'token-file', 'sandbox', 'sandbox-state'],
  examples: [
    'DOCOPS_TOKEN=… docops whoami',
    'docops whoami --sandbox',
    'docops whoami --org $ORG_ID --format json | jq .orgs',
  ],
  async run(ctx) {
    const format = outputFormat(ctx);
    const org = ctx.values.org;
    if (org !== undefined && (typeof org !== 'string' || org === ''))
      throw new UsageError('--org needs an organization id');
    const report = await inspectToken(await connect(ctx), org === undefined ? {} : { org });
    ctx.io.stdout.write(format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderTokenReport(report));
    return report.refused.length > 0 ? 1 : 0;
  },
};
