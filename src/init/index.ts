/**
 * `docops init`: a directory a new user commits — the organization's manifests (export), the daemon's
 * docops.yaml and the GitHub workflow for the chosen applier, the GitHub Action that workflow uses, the editor
 * schemas every file points at, and a .gitignore. Nothing is replaced without `overwrite`, nothing is written
 * through a symbolic link out of the directory (src/write-inside.ts), and both are checked before anything is
 * written: a refused init leaves the directory as it was. `refreshRepository` renews what docops owns there (the
 * schemas and the Action) after an upgrade, and nothing else.
 */
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from '../model/api-client.js';
import type { KindDefinition } from '../model/kind.js';
import { UsageError } from '../model/errors.js';
import { refuseLinks, writeInside } from '../write-inside.js';
import { DOCUMENT_SCHEMA, exportOrganization, type ExportResult } from '../export/index.js';
import { daemonConfigText, type InitSetup } from './config-text.js';
import { INIT_LAYOUT, actionFiles, mergeGitignore, schemaFiles, workflowFile, type InitFile } from './files.js';

export {
  APPLIERS,
  GITIGNORE_ENTRIES,
  INIT_JOURNAL_DIR,
  INIT_LAYOUT,
  PACKAGE_FILES,
  mergeGitignore,
  type Applier,
} from './files.js';
export { REPOSITORY_PATTERN, TEAM_PATTERN, daemonConfigText, type InitSetup } from './config-text.js';

export interface InitOptions {
  overwrite?: boolean;
  /** Each export pass (progress). */
  onPass?: (n: number) => void;
}

export interface InitResult {
  export: ExportResult;
  /** The files init wrote besides the manifests, the Action and the schemas: docops.yaml, the workflow, .gitignore. */
  files: string[];
  /** The Action's files, and the schemas' (what `--refresh` renews). */
  owned: { action: string[]; schemas: string[] };
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

/** The files docops owns in the directory: the Action and the schemas (what `--refresh` renews). */
async function ownedFiles(): Promise<InitFile[]> {
  return [...(await actionFiles()), ...(await schemaFiles())];
}

const listed = (files: readonly string[]): string =>
  files.length <= 2 ? files.join(' and ') : `${files.slice(0, -1).join(', ')} and ${files.at(-1)!}`;

export async function initRepository(
  client: ApiClient,
  kinds: readonly KindDefinition[],
  org: string,
  dir: string,
  setup: InitSetup,
  options: InitOptions = {},
): Promise<InitResult> {
  // Everything is read from the package before anything is written: an installation lacking a file fails here.
  const action = await actionFiles();
  const schemas = await schemaFiles();
  const written: InitFile[] = [
    { path: INIT_LAYOUT.config, text: daemonConfigText(org, setup) },
    await workflowFile(setup.applier),
    ...action,
    ...schemas,
  ];
  const targets = written.map((f) => join(dir, f.path));
  if (!options.overwrite) {
    const present: string[] = [];
    for (const file of targets) if (await exists(file)) present.push(file);
    if (present.length > 0)
      throw new UsageError(
        `${listed(present)} already exist${present.length === 1 ? 's' : ''}; pass --overwrite to replace ${present.length === 1 ? 'it' : 'them'} (and the manifests), or init another directory`,
      );
  }
  const gitignore = join(dir, INIT_LAYOUT.gitignore);
  // Nothing is written through a link out of the directory (a .gitignore linking elsewhere would get our lines):
  // init's files are checked here, the manifests by the export, both before anything is written.
  await refuseLinks(dir, [...targets, gitignore]);
  const exported = await exportOrganization(client, kinds, org, join(dir, INIT_LAYOUT.manifests), {
    overwrite: options.overwrite === true,
    within: dir,
    schema: join(dir, INIT_LAYOUT.schemas, DOCUMENT_SCHEMA),
    ...(options.onPass ? { onPass: options.onPass } : {}),
  });
  for (const [i, f] of written.entries()) await writeInside(dir, targets[i]!, f.text);
  const before = await readIfAny(gitignore);
  const after = mergeGitignore(before);
  const files = targets.slice(0, 2);
  if (after !== before) {
    await writeInside(dir, gitignore, after);
    files.push(gitignore);
  }
  const owned = targets.slice(2);
  return {
    export: exported,
    files,
    owned: { action: owned.slice(0, action.length), schemas: owned.slice(action.length) },
  };
}

/**
 * `docops init --refresh DIR`: the schemas and the Action of this docops, over those an earlier one wrote (after
 * an upgrade). Nothing else is touched — the manifests, docops.yaml and the workflow are the team's — and nothing
 * is read from the API. Returns the files written.
 */
export async function refreshRepository(dir: string): Promise<string[]> {
  const config = join(dir, INIT_LAYOUT.config);
  if (!(await exists(config)))
    throw new UsageError(
      `${config} does not exist: --refresh renews the schemas and the Action of a repository \`docops init --org ID DIR\` wrote`,
    );
  const files = await ownedFiles();
  const targets = files.map((f) => join(dir, f.path));
  await refuseLinks(dir, targets);
  for (const [i, f] of files.entries()) await writeInside(dir, targets[i]!, f.text);
  return targets;
}
