/**
 * The licenses of the packages a bundle holds, as one text file beside it (what ncc writes as licenses.txt): each
 * package's name, version, license and its license file, sorted by name, so the committed bundle carries the
 * notices its packages' licenses ask for, and the file changes only when the bundled packages do.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The directory of the package a module belongs to (below its last node_modules/), or undefined for our own modules. */
export function packageDir(moduleId: string): string | undefined {
  const m = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(moduleId);
  return m?.[1];
}

interface PackageJson {
  name?: string;
  version?: string;
  license?: unknown;
}

const LICENSE_FILE = /^(licen[cs]e|copying)(\.(md|txt|markdown))?$/i;

export function licensesText(moduleIds: readonly string[]): string {
  const dirs = [...new Set(moduleIds.map(packageDir).filter((d): d is string => d !== undefined))];
  const entries = dirs.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
    const license = typeof pkg.license === 'string' ? pkg.license : 'UNKNOWN';
    const file = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => LICENSE_FILE.test(f))
          .sort()[0]
      : undefined;
    const text = file
      ? readFileSync(join(dir, file), 'utf8').replace(/\r\n/g, '\n').trim()
      : '(the package has no license file)';
    return { key: `${pkg.name}@${pkg.version}`, text: `${pkg.name}@${pkg.version}\n${license}\n${text}\n` };
  });
  const unique = [...new Map(entries.map((e) => [e.key, e])).values()];
  unique.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return unique.map((e) => e.text).join('\n');
}
