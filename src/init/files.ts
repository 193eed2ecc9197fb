/**
 * Where `docops init` puts each file, and what it copies from the package: the GitHub workflow of the chosen
 * applier (examples/github/: init writes whatever the documented workflow is, never a second copy of it), the
 * GitHub Action the workflow uses (action.yml and its bundle, so the workflow needs nothing from outside the
 * repository), and the JSON Schemas the files' editor comments point at. Plus the git-ignore lines for what
 * docops leaves on disk.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocopsError } from '../model/errors.js';
import { SHIPPED_SCHEMAS_DIR, SCHEMAS_FOLDER } from '../export/index.js';

/** Where init puts each file, relative to the directory it initializes. */
export const INIT_LAYOUT = {
  manifests: 'manifests',
  config: 'docops.yaml',
  workflow: '.github/workflows/docops.yml',
  /** The docops Action, as the workflow uses it (`uses: ./.github/actions/docops`). */
  action: '.github/actions/docops',
  /** The editor schemas (every file's `# yaml-language-server: $schema=…` line). */
  schemas: SCHEMAS_FOLDER,
  gitignore: '.gitignore',
} as const;

/** Who applies a merge: the GitHub workflow (after its environment's approval) or the daemon (after a policy's). */
export const APPLIERS = ['workflow', 'daemon'] as const;
export type Applier = (typeof APPLIERS)[number];

/** The daemon's delete journal, relative to docops.yaml (and git-ignored: `docops undo` reads it from disk). */
export const INIT_JOURNAL_DIR = '.docops/journal';

/** What init copies from the package, relative to its root; each is in package.json `files`. */
export const PACKAGE_FILES = {
  workflows: { workflow: 'examples/github/docops.yml', daemon: 'examples/github/docops-plan.yml' },
  /** action.yml and the files it runs, at the same paths below INIT_LAYOUT.action. */
  action: ['action.yml', 'action/dist/index.cjs', 'action/dist/licenses.txt'],
} as const satisfies { workflows: Record<Applier, string>; action: readonly string[] };

/** The package root: two levels above src/, dist/ and dist/cli's chunks alike (bundle-cli.ts). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A file the package ships, or a DocopsError saying the installation lacks it. */
async function shipped(file: string): Promise<string> {
  const full = path.join(PACKAGE_ROOT, file);
  try {
    return await readFile(full, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new DocopsError(`${full}, which docops init writes, is missing from this installation: reinstall docops`, {
      cause: err,
    });
  }
}

/** A file to write: its path relative to the initialized directory, and its text. */
export interface InitFile {
  path: string;
  text: string;
}

export async function workflowFile(applier: Applier): Promise<InitFile> {
  return { path: INIT_LAYOUT.workflow, text: await shipped(PACKAGE_FILES.workflows[applier]) };
}

/** The Action, at the same relative paths below INIT_LAYOUT.action as in the package (action.yml names its bundle). */
export async function actionFiles(): Promise<InitFile[]> {
  return Promise.all(
    PACKAGE_FILES.action.map(async (f) => ({ path: `${INIT_LAYOUT.action}/${f}`, text: await shipped(f) })),
  );
}

/** Every schema the package ships (the document schema reaches the kinds' by relative `$ref`s beside it). */
export async function schemaFiles(): Promise<InitFile[]> {
  const names = (await readdir(SHIPPED_SCHEMAS_DIR)).filter((n) => n.endsWith('.schema.json')).sort();
  if (names.length === 0) throw new DocopsError(`no schemas in ${SHIPPED_SCHEMAS_DIR}: reinstall docops`);
  return Promise.all(
    names.map(async (n) => ({
      path: `${INIT_LAYOUT.schemas}/${n}`,
      text: await readFile(path.join(SHIPPED_SCHEMAS_DIR, n), 'utf8'),
    })),
  );
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
