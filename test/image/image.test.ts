/**
 * The container image, built from the Dockerfile and run (issue 23). No Docker engine runs here: buildah builds
 * it (`buildah bud`, chroot isolation, host network) on a stand-in for node:22-bookworm-slim that
 * make-node-base.sh makes without a registry — Debian bookworm and Node 22 with the npm that Node release
 * bundles (npm 10), so the build runs with the npm the real base image ships. Then, in a container of the image,
 * as `docker run` would (its entrypoint, command, user, working directory): `--version`; a plan on its sandbox
 * as the `node` user; the daemon (its CMD, on its sandbox, with `ha: {mode: kubernetes}` against Lease endpoints
 * on the host) taking the lease, answering /healthz, passing the image's HEALTHCHECK, and stopping on SIGTERM.
 *
 * It needs root, buildah and debootstrap. Without them it is skipped, saying why — unless DOCOPS_IMAGE_TEST=required
 * (CI sets it; .ci/run installs the tools), where it fails instead.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../daemon/build.js';
import { startLeaseServer, type FakeLeaseServer } from '../daemon/lease-server.js';
import { waitFor } from '../daemon/wait.js';
import {
  buildah,
  descendantRunning,
  imageConfig,
  imageTestUnavailable,
  run,
  runIn,
  spawnIn,
  type ImageConfig,
} from './buildah.js';

const unavailable = imageTestUnavailable();
const required = process.env.DOCOPS_IMAGE_TEST === 'required';
const BUILD_MS = 12 * 60_000; // a cold base (debootstrap) and a cold build on two busy cores
const WAIT = 60_000;

if (unavailable !== undefined && required) {
  describe('the container image (DOCOPS_IMAGE_TEST=required)', () => {
    it('can be built and run on this machine', () => {
      throw new Error(`the image test cannot run: ${unavailable}`);
    });
  });
}

describe.skipIf(unavailable !== undefined)(
  `the container image${unavailable !== undefined ? ` — skipped: ${unavailable}` : ''}`,
  () => {
    const tag = `localhost/docops-image-test:${process.pid}-${Date.now()}`;
    let container = '';
    let config: ImageConfig;
    const scratch = mkdtempSync(join(tmpdir(), 'docops-image-'));

    beforeAll(async () => {
      const base = await run('bash', [join(REPO, 'test/image/make-node-base.sh')], { timeoutMs: BUILD_MS });
      expect(base.code, base.stderr).toBe(0);
      const nodeImage = base.stdout.trim();
      const built = await run(
        'buildah',
        [
          'bud',
          '--isolation',
          'chroot',
          '--network',
          'host',
          '--format',
          'docker',
          '--pull=never',
          '--build-arg',
          `NODE_IMAGE=${nodeImage}`,
          '--tag',
          tag,
          REPO,
        ],
        { timeoutMs: BUILD_MS },
      );
      expect(built.code, `${built.stdout.slice(-6000)}\n${built.stderr.slice(-4000)}`).toBe(0);
      config = await imageConfig(tag);
      container = await buildah(['from', '--pull=never', tag]);
    }, 2 * BUILD_MS);

    afterAll(async () => {
      if (container) await buildah(['rm', container]);
      await run('buildah', ['rmi', tag]);
      rmSync(scratch, { recursive: true, force: true });
    });

    const docops = (...args: string[]): string[] => [...config.Entrypoint, ...args];

    it('runs the bundled command as the non-root node user from /app', async () => {
      expect(config.User).toBe('node');
      expect(config.WorkingDir).toBe('/app');
      expect(config.Entrypoint).toEqual(['node', 'dist/cli/docops.cjs']);
      const id = await runIn(container, ['id', '-u']);
      expect(id.stdout.trim()).toBe('1000');
      const version = await runIn(container, docops('--version'));
      expect(version.code, version.stderr).toBe(0);
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    });

    it('plans on its sandbox', async () => {
      const r = await runIn(
        container,
        docops('plan', '-m', 'config.example/manifests', '--sandbox', '--format', 'json', '--log-level', 'warn'),
      );
      expect(r.code, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as { steps: unknown[] };
      expect(plan.steps.length).toBeGreaterThan(0);
    });

    it('docops init writes the workflow, the Action and the schemas it ships (issue 34)', async () => {
      const r = await runIn(
        container,
        docops('init', '--org', 'org-demo', '/tmp/acme-docs', '--sandbox', '--log-level', 'warn'),
      );
      expect(r.code, r.stderr).toBe(0);
      const files = await runIn(container, ['find', '/tmp/acme-docs/.github', '/tmp/acme-docs/schemas', '-type', 'f']);
      for (const f of [
        '.github/workflows/docops.yml',
        '.github/actions/docops/action/dist/index.cjs',
        'schemas/document.schema.json',
      ])
        expect(files.stdout).toContain(`/tmp/acme-docs/${f}`);
    });

    it('holds only what runs: no sources, build tools, source maps or type declarations', async () => {
      const app = await runIn(container, ['ls', '/app']);
      expect(app.stdout.split('\n').filter(Boolean).sort()).toEqual([
        'action', // what `docops init` copies into a repository: the Action, the workflows (issue 34)
        'action.yml',
        'config.example',
        'dist',
        'examples',
        'node_modules',
        'npm-shrinkwrap.json',
        'package.json',
        'schemas',
      ]);
      const dropped = await runIn(container, [
        'find',
        '/app',
        '-name',
        '*.map',
        '-o',
        '-name',
        '*.d.ts',
        '-o',
        '-name',
        '*.d.cts',
        '-o',
        '-name',
        '*.d.mts',
      ]);
      expect(dropped.code, dropped.stderr).toBe(0);
      expect(dropped.stdout).toBe('');
      const deps = (await runIn(container, ['ls', '/app/node_modules'])).stdout.split('\n');
      for (const dev of ['typescript', 'vitest', 'rolldown', 'docops', '@gitbook'])
        expect(deps, dev).not.toContain(dev);
      expect(deps).toContain('@kubernetes'); // the HA client: optional elsewhere, always here
    });

    describe('the daemon, its CMD with ha: {mode: kubernetes}', () => {
      let leases: FakeLeaseServer;
      let daemon: ChildProcess;
      const logs: Record<string, unknown>[] = [];
      let exited: Promise<number | null>;

      beforeAll(async () => {
        leases = await startLeaseServer();
        const dir = join(scratch, 'config');
        mkdirSync(dir);
        writeFileSync(join(dir, 'kubeconfig'), leases.kubeconfig('image'));
        writeFileSync(
          join(dir, 'docops.yaml'),
          [
            'manifests: /app/config.example/manifests',
            'journalDir: /var/lib/docops/journal',
            'ha: { mode: kubernetes, leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 500 }',
            '',
          ].join('\n'),
        );
        // The host's network: port 0, the address comes from the log. The image's own defaults otherwise.
        daemon = spawnIn(container, docops(...config.Cmd, '--sandbox', '--log-format', 'json'), {
          env: { DOCOPS_LISTEN: '127.0.0.1:0', KUBECONFIG: '/config/kubeconfig', HOSTNAME: 'docops-image' },
          mounts: { [dir]: '/config' },
        });
        exited = new Promise((resolve) => daemon.on('exit', (code) => resolve(code)));
        createInterface({ input: daemon.stderr! }).on('line', (line) => {
          try {
            logs.push(JSON.parse(line) as Record<string, unknown>);
          } catch {
            logs.push({ msg: line });
          }
        });
        await waitFor(
          () => url() !== undefined,
          WAIT,
          () => `the daemon to listen:\n${JSON.stringify(logs)}`,
        );
      }, WAIT + 10_000);

      afterAll(async () => {
        if (daemon.exitCode === null) daemon.kill('SIGKILL');
        await leases?.close();
      });

      const url = (): string | undefined =>
        logs.find((l) => String(l.msg).startsWith('docops daemon started'))?.url as string | undefined;
      const port = (): string => new URL(url()!).port;

      it(
        'takes the lease through the Kubernetes client and reconciles its sandbox',
        async () => {
          await waitFor(
            () => String(leases.lease('docops', 'docops')?.spec.holderIdentity ?? '').startsWith('docops-image-'),
            WAIT,
            'the lease',
          );
          await waitFor(
            () => logs.some((l) => l.msg === 'reconcile applied'),
            WAIT,
            () => `a reconcile:\n${JSON.stringify(logs.slice(-5))}`,
          );
        },
        2 * WAIT,
      );

      it('answers /healthz, and the image HEALTHCHECK passes', async () => {
        const res = await fetch(`http://127.0.0.1:${port()}/healthz`);
        expect(res.status).toBe(200);
        const [kind, ...check] = config.Healthcheck.Test;
        expect(kind).toBe('CMD');
        // docker runs it with the container's environment, where DOCOPS_LISTEN names the port
        const health = await runIn(container, check, { env: { DOCOPS_LISTEN: `127.0.0.1:${port()}` } });
        expect(health.code, health.stderr).toBe(0);
      });

      it(
        'stops on SIGTERM (docker stop) with exit 0',
        async () => {
          const pid = descendantRunning(daemon.pid!, '/usr/local/bin/node');
          expect(pid).toBeDefined();
          process.kill(pid!, 'SIGTERM');
          expect(await exited, JSON.stringify(logs.slice(-5))).toBe(0);
          expect(logs.some((l) => l.msg === 'signal received' && l.signal === 'SIGTERM')).toBe(true);
        },
        WAIT,
      );
    });
  },
);
