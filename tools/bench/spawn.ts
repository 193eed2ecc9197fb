/** Timed child processes for the start-up and cold-plan benchmarks: the installed `docops` command, as users run it. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseProbe, PROBE_URL, type ProbeResult } from './probe-read.js';
import { epochNow } from './request-clock.js';

/** The package root (dist-tools/bench/ and tools/bench/ are both two levels down). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The file `docops` runs: package.json's `bin`, as npm links it (after `npm run build`, the bundled CLI). */
export function docopsBin(root = PACKAGE_ROOT): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const bin = pkg.bin['docops'];
  if (!bin) throw new Error('package.json has no bin.docops');
  return join(root, bin);
}

/** `node <bin>`: the command line of the installed docops. */
export const docopsCommand = (root = PACKAGE_ROOT): string[] => [process.execPath, docopsBin(root)];

/**
 * A child's environment with nothing of this one's that changes what docops or node does at start (CI,
 * DOCOPS_*, colours, NODE_OPTIONS' loaders, NODE_EXTRA_CA_CERTS: node parses that bundle at every start, ~45 ms
 * here): PATH, HOME, TMPDIR and LANG only, plus `extra`.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: '1' };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG'])
    if (process.env[name] !== undefined) env[name] = process.env[name]!;
  return { ...env, ...extra };
}

/** Variables of this environment that change how long any node process takes to start (not what docops does). */
export const NODE_START_VARIABLES = [
  'NODE_EXTRA_CA_CERTS',
  'NODE_OPTIONS',
  'NODE_ICU_DATA',
  'NODE_COMPILE_CACHE',
] as const;

/** Those of NODE_START_VARIABLES this environment sets (empty when it sets none). */
export function startVariables(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of NODE_START_VARIABLES) if (process.env[name]) out[name] = process.env[name]!;
  return out;
}

export interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Epoch ms just before the spawn and when the process had exited. */
  startedAt: number;
  endedAt: number;
  wallMs: number;
}

/** Run `command` (argv, no shell) to its exit. */
export function runTimed(command: readonly string[], env: Record<string, string>, cwd = PACKAGE_ROOT): Promise<Exited> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = command;
    const startedAt = epochNow();
    const child = spawn(file!, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => void (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => void (stderr += c.toString()));
    child.once('error', reject);
    // 'exit' (not 'close'): the process is gone; its pipes may drain a moment later.
    child.once('exit', (code) => {
      const endedAt = epochNow();
      child.once('close', () => resolve({ code, stdout, stderr, startedAt, endedAt, wallMs: endedAt - startedAt }));
    });
  });
}

export const median = (xs: readonly number[]): number => {
  if (xs.length === 0) throw new Error('no values');
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export interface Probed {
  /** Median user + system CPU of the runs, ms (the process's own accounting, read at its exit). */
  cpuMs: number;
  /** Files loaded by one more run that counted them (file: URLs, sorted). */
  modules: string[];
}

/**
 * `runs` runs of `node [--import probe] <args>` reporting their CPU, then one counting the modules it loads
 * (probe.ts). `command` must start with node. Every run must exit with `expectCode`.
 */
export async function runProbed(
  command: readonly string[],
  args: readonly string[],
  env: Record<string, string>,
  opts: { runs: number; expectCode?: number; probeUrl?: string },
): Promise<Probed> {
  const [node, ...rest] = command;
  const dir = await mkdtemp(join(tmpdir(), 'docops-probe-'));
  const probe = opts.probeUrl ?? PROBE_URL;
  try {
    const once = async (i: number, modules: boolean): Promise<ProbeResult> => {
      const out = join(dir, `run-${i}.txt`);
      const exit = await runTimed([node!, '--import', probe, ...rest, ...args], {
        ...env,
        DOCOPS_PROBE_OUT: out,
        ...(modules ? { DOCOPS_PROBE_MODULES: '1' } : {}),
      });
      if (exit.code !== (opts.expectCode ?? 0))
        throw new Error(`${args.join(' ')} exited ${exit.code}:\n${exit.stderr.slice(0, 2000)}`);
      return parseProbe(await readFile(out, 'utf8'));
    };
    const cpu: number[] = [];
    for (let i = 0; i < opts.runs; i++) cpu.push((await once(i, false)).cpuMs);
    const counted = await once(opts.runs, true);
    return { cpuMs: Math.round(median(cpu) * 10) / 10, modules: counted.modules };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Loaded modules by where they come from: a package name, or `docops` for the package's own files. */
export function modulesByOrigin(modules: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const url of modules) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    const origin = m ? m[1]! : 'docops';
    out[origin] = (out[origin] ?? 0) + 1;
  }
  return out;
}
