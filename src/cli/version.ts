import { readFileSync } from 'node:fs';

/** `-v` / `--version`, as the first argument. */
export const isVersionFlag = (arg: string | undefined): boolean => arg === '-v' || arg === '--version';

/** The package version, read from package.json (two levels up from both src/cli and dist/cli). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}
