/**
 * `docops init`: a directory a new user commits — the organization's manifests (export), the daemon's
 * docops.yaml, the GitHub workflow and a .gitignore. Nothing is replaced without `overwrite`, nothing is written
 * through a symbolic link out of the directory (src/write-inside.ts), and both are checked before anything is
 * written: a refused init leaves the directory as it was.
 */
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from '../model/api-client.js';
import type { KindDefinition } from '../model/kind.js';
import { UsageError } from '../model/errors.js';
import { refuseLinks, writeInside } from '../write-inside.js';
import { exportOrganization, type ExportResult } from '../export/index.js';
import { INIT_LAYOUT, daemonConfigText, mergeGitignore, workflowText } from './files.js';

export {
  GITIGNORE_ENTRIES,
  INIT_JOURNAL_DIR,
  INIT_LAYOUT,
  WORKFLOW_SOURCE,
  daemonConfigText,
  mergeGitignore,
} from './files.js';

export interface InitOptions {
  overwrite?: boolean;
  /** Each export pass (progress). */
  onPass?: (n: number) => void;
}

export interface InitResult {
  export: ExportResult;
  /** The files init wrote besides the manifests (docops.yaml, the workflow, .gitignore). */
  files: string[];
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

async function readIfAny(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

export async function initRepository(
  client: ApiClient,
  kinds: readonly KindDefinition[],
  org: string,
  dir: string,
  options: InitOptions = {},
): Promise<InitResult> {
  const config = join(dir, INIT_LAYOUT.config);
  const workflow = join(dir, INIT_LAYOUT.workflow);
  if (!options.overwrite) {
    const present: string[] = [];
    for (const file of [config, workflow]) if (await exists(file)) present.push(file);
    if (present.length > 0)
      throw new UsageError(
        `${present.join(' and ')} already exist${present.length === 1 ? 's' : ''}; pass --overwrite to replace ${present.length === 1 ? 'it' : 'them'} (and the manifests), or init another directory`,
      );
  }
  const gitignore = join(dir, INIT_LAYOUT.gitignore);
  // Nothing is written through a link out of the directory (a .gitignore linking elsewhere would get our lines):
  // init's files are checked here, the manifests by the export, both before anything is written.
  await refuseLinks(dir, [config, workflow, gitignore]);
  const workflowSource = await workflowText(); // before writing anything: a package without it fails here
  const exported = await exportOrganization(client, kinds, org, join(dir, INIT_LAYOUT.manifests), {
    overwrite: options.overwrite === true,
    within: dir,
    ...(options.onPass ? { onPass: options.onPass } : {}),
  });
  await writeInside(dir, config, daemonConfigText(org));
  await writeInside(dir, workflow, workflowSource);
  const before = await readIfAny(gitignore);
  const after = mergeGitignore(before);
  const files = [config, workflow];
  if (after !== before) {
    await writeInside(dir, gitignore, after);
    files.push(gitignore);
  }
  return { export: exported, files };
}
