/**
 * Build step (last in package.json "build"): the `docops` command as code-split CommonJS, bundled from src/
 * with source maps. `dist/cli/docops.cjs` (package.json `bin`, the image's entry point) is src/cli/bin.ts, and
 * every module a command loads lazily becomes a `dist/cli/chunk-*.cjs` loaded on demand, so the start-up of each
 * command reads a handful of files instead of hundreds (the numbers that decided it are in docs/dev/benchmarks.md,
 * "Start-up"). Everything else in dist/ (the library, the benchmark, this script, tsc's dist/cli/main.js) stays
 * tsc's output.
 *
 * - CommonJS, not ESM: node starts an ES-module entry with its ESM loader (~5 ms of CPU, more under load, for
 *   an empty module). The sources stay ES modules; `import()` becomes a `require` after a tick, `import.meta.url`
 *   the file's URL.
 * - The chunks sit beside tsc's modules, two levels below the package root, so the paths the code builds from
 *   `import.meta.url` (package.json, schemas/, the generated validators) hold in both.
 * - Packages loaded with `createRequire` (pino-pretty, ajv's compiler: rarely needed) stay in node_modules.
 * - So does @kubernetes/client-node (EXTERNAL), loaded only by a daemon with `ha: {mode: kubernetes}`, once per
 *   process: bundled it would be a 2.1 MB chunk with a 9.9 MB source map (dist/cli 6 → 18 MB) for no start-up
 *   gain, and its CommonJS dependencies (node-fetch 2, ws with optional native modules, the auth plugins) would
 *   run from a bundle no test exercises path by path. It is an optional peer dependency: the image has it, other
 *   installs add it for `ha` (src/daemon/ha/leadership.ts says how when it is missing). node-fetch 2 goes with it:
 *   src/daemon/ha/kubernetes.ts sends the Lease requests through it (client-node's own fetch, told not to follow
 *   redirects), so it is the very copy client-node uses, from node_modules.
 * - The workspace packages (the sandbox, what it shares with docops) are bundled from their sources
 *   (workspace-sources.ts): the sandbox is a feature of the command (`docops sandbox`, `--sandbox`).
 * - `undici` resolves to its Pool alone: docops uses nothing else of it, and its index loads fetch,
 *   WebSocket, caches and mocks too (~50 ms of every cold plan). Importing any other name from `undici` in
 *   src/ fails this build (the name is not exported), never silently at run time.
 * - Source maps carry the TypeScript sources: in a checkout, `node --enable-source-maps dist/cli/docops.cjs …`
 *   (or NODE_OPTIONS=--enable-source-maps) prints stack traces in src/ lines. The release tarball and the image
 *   ship none (package.json `files` names the .cjs files only).
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'rolldown';
import { workspaceSources } from './workspace-sources.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Chunk files start with this, so a rebuild can remove the previous build's chunks. */
export const CHUNK_PREFIX = 'chunk-';

const UNDICI_POOL = '\0docops:undici-pool';

/** Imported from node_modules at run time, not bundled (see the file comment). */
export const EXTERNAL = ['@kubernetes/client-node', 'node-fetch'];

/**
 * What undici's index does for a Pool: the module itself, and the request API (`pool.request(…)`) its index
 * puts on every dispatcher's prototype (undici 7.x: index.js, `Object.assign(Dispatcher.prototype, api)`).
 */
const UNDICI_POOL_MODULE = [
  "import Pool from 'undici/lib/dispatcher/pool.js';",
  "import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';",
  "import api from 'undici/lib/api/index.js';",
  'Object.assign(Dispatcher.prototype, api);',
  'export { Pool };',
  '',
].join('\n');

/** `import { Pool } from 'undici'` in src/ → undici's Pool module only (see the file comment; the action's bundle uses it too). */
export const undiciPoolOnly: Plugin = {
  name: 'docops-undici-pool-only',
  resolveId(id, importer) {
    if (id === 'undici' && importer !== undefined && !/[\\/]node_modules[\\/]/.test(importer)) return UNDICI_POOL;
    return null;
  },
  load(id) {
    return id === UNDICI_POOL ? UNDICI_POOL_MODULE : null;
  },
};

/** The bundle's entry in outDir (package.json `bin`). */
export const BIN_FILE = 'docops.cjs';

export interface BundleOptions {
  /** Default: src/cli/bin.ts of this package. */
  entry?: string;
  /** Default: dist/cli of this package. */
  outDir?: string;
}

/** Bundle the CLI; returns the files written (relative to outDir). */
export async function bundleCli(options: BundleOptions = {}): Promise<string[]> {
  const entry = options.entry ?? join(ROOT, 'src', 'cli', 'bin.ts');
  const outDir = options.outDir ?? join(ROOT, 'dist', 'cli');
  removeOldChunks(outDir);
  const result = await build({
    input: { docops: entry },
    platform: 'node',
    tsconfig: join(ROOT, 'tsconfig.build.json'),
    plugins: [undiciPoolOnly, workspaceSources(ROOT)],
    external: EXTERNAL,
    logLevel: 'warn',
    // A missing export (e.g. a new undici import the Pool-only module does not have) fails the build.
    onLog(level, log, handler) {
      if (log.code === 'MISSING_EXPORT') handler('error', log);
      else handler(level, log);
    },
    output: {
      dir: outDir,
      format: 'cjs',
      sourcemap: true,
      entryFileNames: '[name].cjs',
      chunkFileNames: `${CHUNK_PREFIX}[name]-[hash].cjs`,
      // The YAML parser's chunk by its name (the automatic name is its folder's, `dist`).
      codeSplitting: { groups: [{ name: 'yaml', test: /[\\/]node_modules[\\/]yaml[\\/]/ }] },
    },
  });
  return result.output.map((o) => o.fileName);
}

function removeOldChunks(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(CHUNK_PREFIX)) rmSync(join(dir, name));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await bundleCli();
  process.stdout.write(`bundled the CLI: ${files.filter((f) => f.endsWith('.cjs')).length} files in dist/cli\n`);
}
