/** `npm start`: the daemon command with config.example/docops.yaml and --sandbox, end to end in-process. */
import { describe, expect, it } from 'vitest';
import type { Daemon } from '../../src/daemon/daemon.js';
import { daemonCommand } from '../../src/cli/commands/daemon.js';
import { REPO } from './build.js';
import { parsePrometheus } from './prometheus.js';

describe('docops daemon -c config.example/docops.yaml --sandbox', () => {
  it('reconciles the example manifests with the real kinds, then stops cleanly', async () => {
    const stderr: string[] = [];
    const stdout: string[] = [];
    const stop = new AbortController();
    let onStarted!: (d: Daemon) => void;
    const started = new Promise<Daemon>((resolve) => (onStarted = resolve));
    const exitCode = daemonCommand(
      ['-c', `${REPO}config.example/docops.yaml`, '--sandbox', '--listen', '127.0.0.1:0', '--log-format', 'json'],
      { stdout: { write: (s: string) => stdout.push(s) }, stderr: { write: (s: string) => stderr.push(s) }, env: {} },
      { stopSignal: stop.signal, processSignals: false, onStarted, deps: { defaultMetrics: false } },
    );
    const daemon = await Promise.race([
      started,
      exitCode.then((code) => Promise.reject(new Error(`exited early with ${code}: ${stderr.join('')}`))),
    ]);
    const first = await daemon.firstRun!;
    expect(first.result, stderr.join('')).toBe('success');
    expect(first.documents).toBeGreaterThanOrEqual(4);
    expect(first.applied).toBeGreaterThan(0);

    // Applied: a second run finds nothing left to do.
    const again = await daemon.trigger('http');
    expect(again).toMatchObject({ result: 'success', planned: 0 });
    const metrics = parsePrometheus(await (await fetch(`${daemon.url}/metrics`)).text());
    expect(metrics.value('docops_reconcile_runs_total', { result: 'success' })).toBe(2);
    expect((await fetch(`${daemon.url}/readyz`)).status).toBe(200);

    // The demo's planted broken link greets a new user as what it is, not as a warning (issue 34 §9).
    const status = (await (await fetch(`${daemon.url}/api/status`)).json()) as { daemon: { demo: boolean } };
    expect(status.daemon.demo).toBe(true);
    const html = await (await fetch(`${daemon.url}/`)).text();
    expect(html).toContain('<span class="badge info">1 space(s) with broken links</span>');
    expect(html).toContain('broken link in its API Reference on purpose');
    expect(html).not.toMatch(/class="badge warn"/);
    expect(html).toContain('seeded with the demo organization');
    expect(stderr.join('')).not.toContain(daemon.sandbox!.token);

    stop.abort();
    expect(await exitCode).toBe(0);
  });
});
