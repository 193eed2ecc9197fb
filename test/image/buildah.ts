/**
 * buildah for the image test: build a Dockerfile and run commands in a container of the image, as root, with
 * chroot isolation and the host's network (no Docker engine, no container runtime, no registry here).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Why the image test cannot run on this machine, or undefined when it can. */
export function imageTestUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `buildah needs Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'buildah and debootstrap need root here';
  for (const tool of ['buildah', 'debootstrap']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      return `${tool} is not installed (apt-get install buildah debootstrap; .ci/run does)`;
    }
  }
  return undefined;
}

export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function buildah(args: string[], timeoutMs = 120_000): Promise<string> {
  const r = await run('buildah', args, { timeoutMs });
  if (r.code !== 0) throw new Error(`buildah ${args.join(' ')} exited ${r.code}:\n${r.stderr.slice(-4000)}`);
  return r.stdout.trim();
}

/** What `docker run` takes from an image's config. */
export interface ImageConfig {
  User: string;
  WorkingDir: string;
  Entrypoint: string[];
  Cmd: string[];
  Env: string[];
  Healthcheck: { Test: string[] };
  Volumes?: Record<string, object>;
}

export async function imageConfig(image: string): Promise<ImageConfig> {
  return (JSON.parse(await buildah(['inspect', '--type', 'image', image])) as { Docker: { config: ImageConfig } })
    .Docker.config;
}

export interface RunOptions {
  env?: Record<string, string>;
  /** host path → container path, read-only */
  mounts?: Record<string, string>;
  timeoutMs?: number;
}

/** `buildah run` arguments: the image's own user and working directory (buildah takes them from its config). */
function runArgs(container: string, argv: string[], options: RunOptions): string[] {
  return [
    'run',
    '--isolation',
    'chroot',
    '--network',
    'host',
    ...Object.entries(options.env ?? {}).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    ...Object.entries(options.mounts ?? {}).flatMap(([host, inside]) => ['--volume', `${host}:${inside}:ro`]),
    container,
    '--',
    ...argv,
  ];
}

export function runIn(container: string, argv: string[], options: RunOptions = {}): Promise<Run> {
  return run('buildah', runArgs(container, argv, options), { timeoutMs: options.timeoutMs ?? 120_000 });
}

export function spawnIn(container: string, argv: string[], options: RunOptions = {}): ChildProcess {
  return spawn('buildah', runArgs(container, argv, options), { stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The process `buildah run` started for `executable`, by the host's /proc: chroot isolation keeps the host's
 * process IDs, and `buildah run` itself answers SIGTERM with SIGKILL to its command — `docker stop` sends SIGTERM
 * to the command, so the test signals it directly.
 */
export function descendantRunning(ancestor: number, executable: string): number | undefined {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const descends = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === ancestor) return true;
    return false;
  };
  for (const pid of parents.keys()) {
    if (!descends(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] === executable) return pid;
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}
