/**
 * The files `docops init` writes beside the exported manifests: the daemon's docops.yaml, the git-ignore lines
 * for what docops leaves on disk, and the GitHub workflow — copied from the one the package ships
 * (examples/github/docops.yml), so init writes whatever the documented workflow is, never a second copy of it.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DocopsError } from '../model/errors.js';
import { documentSchemaUrl } from '../export/index.js';

/** Where init puts each file, relative to the directory it initializes. */
export const INIT_LAYOUT = {
  manifests: 'manifests',
  config: 'docops.yaml',
  workflow: '.github/workflows/docops.yml',
  gitignore: '.gitignore',
} as const;

/** The daemon's delete journal, relative to docops.yaml (and git-ignored: `docops undo` reads it from disk). */
export const INIT_JOURNAL_DIR = '.docops/journal';

/**
 * The workflow the package ships: two levels below the package root from src/, dist/ and dist/cli's chunks
 * alike (bundle-cli.ts). It must be in package.json `files`.
 */
export const WORKFLOW_SOURCE = fileURLToPath(new URL('../../examples/github/docops.yml', import.meta.url));

export async function workflowText(): Promise<string> {
  try {
    return await readFile(WORKFLOW_SOURCE, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new DocopsError(
      `the GitHub workflow docops ships is missing from this installation (${WORKFLOW_SOURCE}): reinstall docops`,
      { cause: err },
    );
  }
}

export function daemonConfigText(org: string): string {
  const schema = documentSchemaUrl().replace(/document\.schema\.json$/, 'config.schema.json');
  return [
    `# yaml-language-server: $schema=${schema}`,
    `# docops daemon configuration for organization ${JSON.stringify(org)}, written by \`docops init\`:`,
    '#   docops daemon -c docops.yaml',
    '# Relative paths are relative to this file. DOCOPS_* environment variables override single fields',
    '# (DOCOPS_API_URL, DOCOPS_MANIFESTS, DOCOPS_MODE, DOCOPS_LISTEN, …). Every field: docs/daemon.md.',
    '',
    `manifests: ./${INIT_LAYOUT.manifests}`,
    '# allowEnv: [ORG_ID]               # variables the manifests may read as ${NAME} (none by default)',
    '',
    '# apiUrl: https://api.gitbook.com/v1   # else DOCOPS_API_URL, else this default',
    '# tokenFile: /run/secrets/docops-token # else DOCOPS_TOKEN',
    '',
    'mode: apply                  # or plan: report drift (metrics, logs, status page) and never write',
    'schedule: "*/10 * * * *"     # also reconcile every 10 minutes: reverts changes made behind docops\'s back',
    'listen: 127.0.0.1:8080       # the status page, /healthz, /readyz, /metrics, POST /reconcile',
    '# reconcileSecretFile: /run/secrets/docops-reconcile   # turns on POST /reconcile',
    '',
    'prune: {}                    # e.g. { Team: true }: delete live teams no manifest mentions',
    'invite: false',
    'safety:                      # limits per run: docs/safety.md',
    '  deletes: { fraction: 0.25, minLive: 10, max: 100 }',
    '  updates: { fraction: 0.3, minLive: 10, max: 500 }',
    `journalDir: ./${INIT_JOURNAL_DIR}   # \`docops undo\` restores deletes from it: keep it (git-ignored)`,
    'logLevel: info',
    '',
  ].join('\n');
}

/** Files docops leaves in a working copy that never belong in git. */
export const GITIGNORE_ENTRIES = ['.docops/', 'docops-plan.json', 'plan.json'] as const;

/** `existing` (a .gitignore's text, '' when there is none) with the entries it lacks appended. */
export function mergeGitignore(existing: string): string {
  const present = new Set(existing.split(/\r?\n/).map((l) => l.trim()));
  const missing = GITIGNORE_ENTRIES.filter((e) => !present.has(e) && !present.has(`/${e}`));
  if (missing.length === 0) return existing;
  const head = existing === '' || existing.endsWith('\n') ? existing : `${existing}\n`;
  return `${head}${head === '' ? '' : '\n'}# docops: delete journals and saved plans stay out of git\n${missing.join('\n')}\n`;
}
