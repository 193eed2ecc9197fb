/**
 * The Kubernetes kit's pod on this machine. `kubectl kustomize` renders the kit as `kubectl apply -k` would apply
 * it, and its docops container runs as the pod runs it: the container's args given to `docops daemon`'s entry
 * (daemonCommand, in this process), its environment (values from the Secret the user creates, by secretKeyRef),
 * its volumes as directories under a scratch root (what the container sees at /git is ROOT/volumes/git, …), and
 * git-sync's work done by GitSync, following the repository as the kit's git-sync containers are told to
 * (`--ref`, `--root`, `--link`; `--repo` is the test's repository, as the user sets theirs). Two changes, both the
 * test's: the daemon listens on 127.0.0.1:0 instead of the pod's port, and its cron schedule is hand-cranked.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { daemonCommand } from '../../src/cli/commands/daemon.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import type { RunRecord } from '../../src/daemon/run.js';
import { FakeScheduler } from '../daemon/fakes.js';
import { REPO } from '../daemon/build.js';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
export interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: EnvVar[];
  volumeMounts?: { name: string; mountPath: string }[];
}
interface Volume {
  name: string;
  secret?: { secretName: string };
  configMap?: { name: string };
}
export interface Resource {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: { template?: { spec: { containers: Container[]; initContainers?: Container[]; volumes: Volume[] } } };
}

/** `kubectl kustomize deploy/OVERLAY`: the resources `kubectl apply -k` applies. */
export function renderKit(overlay: string, kubectl = process.env.DOCOPS_KUBECTL ?? 'kubectl'): Resource[] {
  const r = spawnSync(kubectl, ['kustomize', join(REPO, 'deploy', overlay)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`kubectl kustomize deploy/${overlay}: ${r.error?.message ?? r.stderr}`);
  return parseAllDocuments(r.stdout).map((d) => d.toJS() as Resource);
}

const flag = (args: readonly string[], name: string): string | undefined =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/**
 * git-sync v4 with the kit's flags: a checkout of `--ref` (HEAD: the remote's default branch) in a directory of
 * its own under `--root`, published by swapping the `--link` symlink to it in one rename.
 */
export class GitSync {
  private readonly ref: string;
  private readonly link: string;
  constructor(
    args: readonly string[],
    private readonly root: string,
    private readonly remote: string,
  ) {
    this.ref = flag(args, 'ref') ?? 'HEAD';
    this.link = flag(args, 'link') ?? 'HEAD';
    mkdirSync(root, { recursive: true });
  }

  /** One sync: the commit it published. */
  sync(): string {
    const sha = execFileSync('git', ['ls-remote', this.remote, this.ref], { encoding: 'utf8' }).split(/\s/)[0]!;
    const worktree = join(this.root, '.worktrees', sha);
    spawnSync('git', ['clone', '--quiet', this.remote, worktree]);
    execFileSync('git', ['-c', 'advice.detachedHead=false', 'checkout', '--quiet', sha], { cwd: worktree });
    const temp = join(this.root, `.${this.link}.tmp`);
    symlinkSync(join('.worktrees', sha), temp);
    renameSync(temp, join(this.root, this.link));
    return sha;
  }
}

export interface KitPod {
  daemon: Daemon;
  gitSync: GitSync;
  scheduler: FakeScheduler;
  /** The container's path, on this machine. */
  host(path: string): string;
  /** The first run finished after `after` runs (default: the next one). */
  run(after?: number): Promise<RunRecord>;
  logs: string[];
  stop(): Promise<number>;
}

/**
 * Start the docops container of the rendered kit. `secret` is the Secret `docops` the user creates (key → value),
 * `env` what the cluster adds to the container's environment here (the API the sandbox serves).
 */
export async function startKitPod(o: {
  resources: Resource[];
  root: string;
  remote: string;
  secret: Record<string, string>;
  env: Record<string, string>;
}): Promise<KitPod> {
  const pod = o.resources.find((r) => r.kind === 'Deployment')!.spec!.template!.spec;
  const docops = pod.containers.find((c) => c.name === 'docops')!;
  const volumeDir = (name: string): string => join(o.root, 'volumes', name);
  for (const v of pod.volumes) {
    mkdirSync(volumeDir(v.name), { recursive: true });
    if (v.secret) {
      if (v.secret.secretName !== 'docops') throw new Error(`the pod mounts the Secret ${v.secret.secretName}`);
      for (const [key, value] of Object.entries(o.secret)) writeFileSync(join(volumeDir(v.name), key), value);
    }
    if (v.configMap) {
      const cm = o.resources.find((r) => r.kind === 'ConfigMap' && r.metadata.name === v.configMap!.name);
      if (!cm) throw new Error(`the pod mounts the ConfigMap ${v.configMap.name}, which the kit does not hold`);
      for (const [key, value] of Object.entries(cm.data ?? {})) writeFileSync(join(volumeDir(v.name), key), value);
    }
  }
  const mounts = [...(docops.volumeMounts ?? [])].sort((a, b) => b.mountPath.length - a.mountPath.length);
  const host = (path: string): string => {
    const m = mounts.find((x) => path === x.mountPath || path.startsWith(`${x.mountPath}/`));
    if (!m) throw new Error(`${path} is on no volume of the docops container`);
    return join(volumeDir(m.name), path.slice(m.mountPath.length));
  };
  const mapped = (value: string): string => (value.startsWith('/') ? host(value) : value);
  // git-sync: its first checkout before docops starts (the init container), as the kit's sidecar is told to.
  const sidecar = [...(pod.initContainers ?? []), ...pod.containers].find((c) => c.name.startsWith('git-sync'));
  if (!sidecar) throw new Error('the kit runs no git-sync');
  const gitMount = sidecar.volumeMounts!.find((m) => flag(sidecar.args!, 'root') === m.mountPath)!;
  const gitSync = new GitSync(sidecar.args!, volumeDir(gitMount.name), o.remote);
  gitSync.sync();

  const env: Record<string, string> = {};
  for (const e of docops.env ?? []) {
    if (e.value !== undefined) env[e.name] = mapped(e.value);
    const ref = e.valueFrom?.secretKeyRef;
    if (ref) {
      if (ref.name !== 'docops') throw new Error(`${e.name} reads the Secret ${ref.name}`);
      const value = o.secret[ref.key];
      if (value === undefined && !ref.optional) throw new Error(`${e.name}: the Secret has no ${ref.key}`);
      if (value !== undefined) env[e.name] = value;
    }
  }
  const [command, ...args] = docops.args!;
  if (command !== 'daemon') throw new Error(`the docops container runs ${command}, not the daemon`);
  const logs: string[] = [];
  const scheduler = new FakeScheduler();
  const stop = new AbortController();
  let started: (d: Daemon) => void = () => undefined;
  const daemonStarted = new Promise<Daemon>((resolve) => (started = resolve));
  let failed: (e: unknown) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => (failed = reject));
  const exit = daemonCommand(
    [...args.map(mapped), '--listen', '127.0.0.1:0'],
    {
      stdout: { write: (c: string) => void logs.push(c), isTTY: false },
      stderr: { write: (c: string) => void logs.push(...c.split('\n').filter(Boolean)), isTTY: false },
      env: { ...env, ...o.env },
    },
    { stopSignal: stop.signal, processSignals: false, onStarted: started, deps: { scheduler, defaultMetrics: false } },
  );
  exit.catch(failed);
  const daemon = await Promise.race([daemonStarted, failure]);
  const run = (after = daemon.runs.length): Promise<RunRecord> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (daemon.runs.length <= after) return;
        daemon.off('run', check);
        resolve(daemon.runs[after]!);
      };
      daemon.on('run', check);
      check();
    });
  return {
    daemon,
    gitSync,
    scheduler,
    host,
    run,
    logs,
    stop: async () => {
      stop.abort();
      return exit;
    },
  };
}
