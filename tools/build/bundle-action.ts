/**
 * `npm run build:action`: the GitHub Action (action.yml, `runs.using: node24`) as ONE committed file,
 * action/dist/index.cjs — action/main.ts and everything it runs, the CLI's modules and their packages — plus
 * action/dist/licenses.txt, the licenses of the packages inside it. The convention of actions/checkout and its
 * peers (ncc's dist/index.js): a workflow that uses the action runs the file; nothing is installed or built.
 *
 * - Self-contained: every package is inlined, and so is every file the modules read relative to themselves
 *   (the schemas, the generated validators, the scopes table: action-plugins.ts). A `require` of anything but a
 *   Node built-in left in the output fails the build. The daemon, export, undo and the sandbox are left out
 *   (with them the HA lease client, which the action never needs).
 * - Deterministic: the same sources and lock file give the same bytes on any machine, in any directory (paths
 *   in the output are relative to the package root; no time, no absolute path — checked here), so
 *   test/github/action-bundle.test.ts can compare the committed file with a fresh build.
 * - Readable, not minified (as ncc's output): a reviewer can read what changed, and stack traces name functions.
 * - Runs on Node 20.19+ (docops's floor) as well as the runner's node24.
 *
 * Needs `npm run build` first (the generated validators and the scopes table are in dist/); `build:action`
 * runs both.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type OutputChunk } from 'rolldown';
import { PRECOMPILED_INDEX } from '#src/manifests/schema.js';
import { selfContained } from './action-plugins.js';
import { shippedSchemas } from './precompile-validators.js';
import { undiciPoolOnly } from './bundle-cli.js';
import { licensesText } from './licenses.js';
import { workspaceSources } from './workspace-sources.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the bundle is committed, relative to the package root (action.yml's `runs.main` is its index.cjs). */
export const ACTION_BUNDLE_DIR = 'action/dist';
export const ACTION_BUNDLE_FILES = ['index.cjs', 'licenses.txt'] as const;

const BANNER =
  '// The docops GitHub Action, bundled by `npm run build:action` (tools/build/bundle-action.ts) from action/main.ts: do not edit.';

export interface ActionBundleOptions {
  /** Default: action/dist of this package. */
  outDir?: string;
}

/** Bundle the action; returns the files written (relative to outDir). */
export async function bundleAction(options: ActionBundleOptions = {}): Promise<string[]> {
  const outDir = options.outDir ?? join(ROOT, ACTION_BUNDLE_DIR);
  const fromRoot = createRequire(join(ROOT, 'package.json'));
  const validators = resolve(ROOT, 'dist/manifests', PRECOMPILED_INDEX);
  checkValidators(fromRoot(validators) as [string, unknown][]);
  const result = await build({
    input: join(ROOT, 'action/main.ts'),
    cwd: ROOT,
    platform: 'node',
    tsconfig: join(ROOT, 'tsconfig.build.json'),
    plugins: [
      undiciPoolOnly,
      selfContained({
        root: ROOT,
        requires: {
          // src/manifests/schema.ts: the validators `npm run build` generated, relative to dist/manifests/.
          [PRECOMPILED_INDEX]: validators,
          // src/log.ts: the pretty format (--log-format pretty).
          'pino-pretty': fromRoot.resolve('pino-pretty'),
        },
      }),
      // After selfContained, whose resolveId leaves out the sandbox before this one resolves it.
      workspaceSources(ROOT),
    ],
    logLevel: 'warn',
    onLog(level, log, handler) {
      // A missing export (a src/ import the substituted modules lack), an eval, anything unexpected: fail.
      handler(level === 'warn' ? 'error' : level, log);
    },
    output: { entryFileNames: 'index.cjs', format: 'cjs', codeSplitting: false, sourcemap: false, banner: BANNER },
  });
  const chunk = result.output.find((o): o is OutputChunk => o.type === 'chunk');
  if (!chunk || result.output.length !== 1)
    throw new Error(`the action bundle must be one file, got ${result.output.map((o) => o.fileName).join(', ')}`);
  checkSelfContained(chunk);
  const files = { 'index.cjs': chunk.code, 'licenses.txt': licensesText(Object.keys(chunk.modules)) };
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(outDir, name), text);
  return Object.keys(files);
}

/**
 * Every schema docops validates with must have its generated validator: the bundle has no schema compiler (ajv's
 * compiler is left out), so a schema changed since `npm run build` would fail every run that validates.
 */
function checkValidators(index: readonly [string, unknown][]): void {
  const generated = new Set(index.map(([schema]) => schema));
  const missing = shippedSchemas().filter((s) => !generated.has(JSON.stringify(s.schema)));
  if (missing.length > 0)
    throw new Error(
      `dist/manifests/validators has no validator for the current ${missing.map((s) => s.name).join(', ')} schema: run \`npm run build:action\` (it builds first)`,
    );
}

/** Fail on what would make the bundle depend on its surroundings: a package it loads, a path of this machine. */
function checkSelfContained(chunk: OutputChunk): void {
  // What the bundle left to Node's loader: built-ins only (`node:` names are built-ins of some Node version).
  const loaded = [...new Set([...chunk.imports, ...chunk.dynamicImports])].filter(
    (id) => id !== chunk.fileName && !id.startsWith('node:') && !isBuiltin(id),
  );
  if (loaded.length > 0) throw new Error(`the action bundle loads what it does not hold: ${loaded.join(', ')}`);
  for (const local of [ROOT, ROOT.replace(/[\\/]$/, '')])
    if (chunk.code.includes(local)) throw new Error(`the action bundle holds a path of this machine (${local})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await bundleAction();
  const size = readFileSync(join(ROOT, ACTION_BUNDLE_DIR, 'index.cjs')).length;
  process.stdout.write(
    `bundled the GitHub Action: ${files.map((f) => `${ACTION_BUNDLE_DIR}/${f}`).join(', ')} (${(size / 1024).toFixed(0)} KiB)\n`,
  );
}
