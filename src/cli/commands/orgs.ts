/** `docops orgs`: the organizations the token sees, with their ids (what `--org` and the manifests name). */
import { listOrgs } from '../../connect/orgs.js';
import { renderOrgs } from '../../connect/render.js';
import type { CommandSpec } from '../command.js';
import { connect } from '../connect.js';
import { OUTPUT_FORMAT_FLAG, outputFormat } from './whoami.js';

export const orgsCommand: CommandSpec = {
  name: 'orgs',
  usage: 'docops orgs [--format text|json] [flags]',
  description:
    'Lists the organizations the token sees (GET /orgs, every page): id and title. The id is what\n' +
    '`docops init --org ID` and `docops export --org ID` take and what manifests name in\n' +
    '`metadata.organization`. Only reads: any token works.',
  flags: { format: OUTPUT_FORMAT_FLAG },
  globals: ['api-url', 'token-file', 'sandbox', 'sandbox-state'],
  examples: ['DOCOPS_TOKEN=… docops orgs', 'docops orgs --sandbox', 'docops orgs --format json | jq -r ".[].id"'],
  async run(ctx) {
    const format = outputFormat(ctx);
    const orgs = await listOrgs(await connect(ctx));
    ctx.io.stdout.write(
      format === 'json'
        ? `${JSON.stringify(
            orgs.map(({ id, title }) => ({ id, title })),
            null,
            2,
          )}\n`
        : renderOrgs(orgs),
    );
    return 0;
  },
};
