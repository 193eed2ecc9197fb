/**
 * What a plan read besides its manifest files and the live state: the data files its manifests name with `{file}`
 * (an OpenAPI spec, a SAML certificate, a brand file) and the environment variables they read as `${VAR}`. A saved
 * plan pins both as digests — never a value — and `apply --plan` refuses it when one changed, went away, or was
 * read where the plan read none (verify.ts), naming the file or the variable.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StalePlanError } from '../model/errors.js';
import type { LoadInputs } from '../manifests/index.js';
import { digest } from './canonical.js';

export interface InputsDigest {
  /** Data file (its real path relative to the manifests directory's, with `/`) → `sha256:` of its text. */
  dataFiles: Record<string, string>;
  /** Variable name → `sha256:` of `NAME=value`, or `unset`. */
  variables: Record<string, string>;
}

export const UNSET = 'unset';

/** The digests of what a load read (sorted by name, so equal inputs write equal files). */
export function inputsDigest(inputs: LoadInputs): InputsDigest {
  const sorted = <T>(m: ReadonlyMap<string, T>, f: (k: string, v: T) => string): Record<string, string> =>
    Object.fromEntries([...m.keys()].sort().map((k) => [k, f(k, m.get(k) as T)]));
  return {
    dataFiles: sorted(inputs.dataFiles, (_, c) => `sha256:${c.sha256}`),
    variables: sorted(inputs.variables, variableDigest),
  };
}

/** Bound to the name, so two variables holding one value do not show it. */
const variableDigest = (name: string, value: string | undefined): string =>
  value === undefined ? UNSET : digest(`${name}=${value}`);

const stale = (what: string, names: string[]): StalePlanError =>
  new StalePlanError(
    `refusing the saved plan: ${what} changed since the plan was made (${names.join(', ')}). Run docops plan again.`,
  );

/**
 * Before the manifests are loaded: each data file the plan read is still there with the same text (a removed one
 * would otherwise fail the load as a broken reference, not as a stale plan). The text is compared as the loader
 * reads it: UTF-8, a leading BOM not part of it.
 */
export async function verifyDataFilesOnDisk(saved: Pick<InputsDigest, 'dataFiles'>, dir: string): Promise<void> {
  const changed: string[] = [];
  for (const [rel, was] of Object.entries(saved.dataFiles)) {
    const full = path.resolve(dir, ...rel.split('/'));
    const inside = path.relative(path.resolve(dir), full);
    if (rel === '' || inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) {
      changed.push(`${rel} changed`); // not a path the loader reads: the plan file was edited
      continue;
    }
    let text: string;
    try {
      text = new TextDecoder().decode(await readFile(full));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      changed.push(
        code === 'ENOENT' || code === 'ENOTDIR' ? `${rel} removed` : `${rel} unreadable (${code ?? 'error'})`,
      );
      continue;
    }
    if (digest(text) !== was) changed.push(`${rel} changed`);
  }
  if (changed.length > 0) throw stale('data files', changed);
}

/** After the load: the same data files and variables, with the same digests. */
export function verifyInputs(saved: InputsDigest, now: InputsDigest): void {
  const files = differences(saved.dataFiles, now.dataFiles, (k, was, is) =>
    was === undefined ? `${k} added` : is === undefined ? `${k} no longer read` : `${k} changed`,
  );
  if (files.length > 0) throw stale('data files', files);
  const vars = differences(saved.variables, now.variables, (k) => k);
  if (vars.length > 0) throw stale('environment variables the manifests read', vars);
}

function differences(
  was: Record<string, string>,
  is: Record<string, string>,
  say: (key: string, was: string | undefined, is: string | undefined) => string,
): string[] {
  return [...new Set([...Object.keys(was), ...Object.keys(is)])]
    .filter((k) => was[k] !== is[k])
    .sort()
    .map((k) => say(k, was[k], is[k]));
}
