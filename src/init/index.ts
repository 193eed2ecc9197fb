/**
 * `docops init`: a directory a new user commits — the organization's manifests (export), the daemon's
 * docops.yaml, the GitHub workflow and a .gitignore. Nothing is replaced without `overwrite`, and that is
 * checked before anything is written: a refused init leaves the directory as it was.
 */
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ApiClient } from '../model/api-client.js';
import type { KindDefinition } from '../model/kind.js';
import { UsageError } from '../model/errors.js';
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
  const workflowSource = await workflowText(); // before writing anything: a package without it fails here
  const exported = await exportOrganization(client, kinds, org, join(dir, INIT_LAYOUT.manifests), {
    overwrite: options.overwrite === true,
    ...(options.onPass ? { onPass: options.onPass } : {}),
  });
  await writeFile(config, daemonConfigText(org), 'utf8');
  await mkdir(dirname(workflow), { recursive: true });
  await writeFile(workflow, workflowSource, 'utf8');
  const gitignore = join(dir, INIT_LAYOUT.gitignore);
  const before = await readIfAny(gitignore);
  const after = mergeGitignore(before);
  const files = [config, workflow];
  if (after !== before) {
    await writeFile(gitignore, after, 'utf8');
    files.push(gitignore);
  }
  return { export: exported, files };
}
