/**
 * The bundles (the CLI's, the action's) take the workspace packages (@docops/sandbox, @docops/api-shared) from
 * their TypeScript sources, as the type check and the tests do: each import resolves to the `docops-source`
 * target of the package's `exports`, so a bundle never depends on a stale tsc build of a package. Only ids of
 * the workspace's scope are looked at; everything else resolves as it would without this plugin.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'rolldown';

export const WORKSPACE_SCOPE = '@docops/';
export const SOURCE_CONDITION = 'docops-source';

type Exports = Record<string, Record<string, string> | undefined>;

/** The plugin, for the workspace linked into `root`/node_modules. */
export function workspaceSources(root: string): Plugin {
  const packages = new Map<string, { dir: string; exports: Exports }>();
  const read = (name: string): { dir: string; exports: Exports } => {
    let pkg = packages.get(name);
    if (!pkg) {
      const dir = realpathSync(join(root, 'node_modules', name));
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports?: Exports };
      pkg = { dir, exports: manifest.exports ?? {} };
      packages.set(name, pkg);
    }
    return pkg;
  };
  return {
    name: 'docops-workspace-sources',
    resolveId(id) {
      if (!id.startsWith(WORKSPACE_SCOPE)) return null;
      const [scope, base, ...rest] = id.split('/');
      const { dir, exports } = read(`${scope}/${base}`);
      const subpath = rest.length === 0 ? '.' : `./${rest.join('/')}`;
      const target = exports[subpath]?.[SOURCE_CONDITION];
      if (target === undefined)
        throw new Error(`${id}: not an entry of ${scope}/${base} (its package.json exports, "${SOURCE_CONDITION}")`);
      return resolve(dir, target);
    },
  };
}
