/**
 * Shared by the saved-plan, safety, cost, export and GitHub CLI tests: a sandbox started in the test (so the
 * test can fill its store and read its request counts) and the in-process CLI pointed at it with a token.
 */
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { runCli, type CliRun } from './run-cli.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((fn) => fn()));
});

export interface LiveCli {
  sb: RunningSandbox;
  /** Run docops against the sandbox (--api-url + DOCOPS_TOKEN), logs silenced unless argv sets a level. */
  run(argv: string[], env?: Record<string, string | undefined>): Promise<CliRun>;
  /** Requests the sandbox answered since the last reset, other than GETs. */
  writes(): number;
}

export async function liveCli(seed: 'demo' | 'empty' = 'demo'): Promise<LiveCli> {
  const sb = await startSandbox({ host: '127.0.0.1', port: 0, seed });
  cleanups.push(() => sb.close());
  return {
    sb,
    run: (argv, env = {}) =>
      runCli([...argv, '--api-url', sb.url, ...(argv.includes('--log-level') ? [] : ['--log-level', 'silent'])], {
        DOCOPS_TOKEN: sb.token,
        ...env,
      }),
    writes: () => {
      const s = sb.stats();
      return s.total - (s.byMethod['GET'] ?? 0);
    },
  };
}

export async function tempDir(prefix = 'docops-cli-'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A copy of config.example/manifests to edit. */
export async function exampleManifests(): Promise<string> {
  const dir = path.join(await tempDir('docops-manifests-'), 'manifests');
  await cp('config.example/manifests', dir, { recursive: true });
  return dir;
}

/** A manifests directory holding exactly these files. */
export async function manifestsOf(files: Record<string, string>): Promise<string> {
  const dir = path.join(await tempDir('docops-manifests-'), 'manifests');
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text, 'utf8');
  return dir;
}

export async function filesIn(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

export function doc(kind: string, spec: string, org = 'org-demo', extra = ''): string {
  return `apiVersion: docops/v1\nkind: ${kind}\nmetadata:\n  organization: ${org}\n${extra}spec:\n${spec}`;
}
