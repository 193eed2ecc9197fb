/** `docops validate`: load and check the manifests offline (no token, no network). */
import { formatIssue } from '../../model/errors.js';
import type { CommandSpec } from '../command.js';
import { annotateWarnings } from '../github.js';
import { ALLOW_ENV_FLAG, MANIFESTS_FLAG, loadDesired } from '../pipeline.js';

export const validateCommand: CommandSpec = {
  name: 'validate',
  usage: 'docops validate -m DIR [flags]',
  description:
    'Loads every manifest under DIR and validates it against the kind schemas and cross-document rules, without\n' +
    'calling the API (safe for pull requests from forks). Prints every problem as file:line:column: message.\n' +
    'A reference that names no manifest (a space, a parent collection, a site) is printed on stderr as\n' +
    '"warning: file:line:column: message": it must name a live object, which only plan can check. Warnings\n' +
    'do not fail validation.',
  flags: { manifests: MANIFESTS_FLAG, 'allow-env': ALLOW_ENV_FLAG },
  // Offline: no API flags. --token-file only so no manifest variable can carry the token into a message.
  globals: ['token-file'],
  // 'manifests loaded' (pipeline.ts) is its only log line: at the default level validate never loads pino.
  logsAtMost: 'debug',
  examples: [
    'docops validate -m manifests',
    'docops validate -m manifests --allow-env TEAM_SUFFIX,ORG_*',
    'docops validate -m config.example/manifests --log-level warn',
  ],
  async run(ctx) {
    const { documents, desired, warnings } = await loadDesired(ctx);
    for (const w of warnings) ctx.io.stderr.write(`warning: ${formatIssue(w)}\n`);
    annotateWarnings(warnings, ctx.io);
    let objects = 0;
    for (const entries of desired.values()) objects += entries.length;
    ctx.io.stdout.write(
      `${documents.length} document${documents.length === 1 ? '' : 's'}, ${objects} object${objects === 1 ? '' : 's'} valid\n`,
    );
    return 0;
  },
};
