/** The job's step summary: its markdown is made only when it is written (in GitHub Actions, with the file named). */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CommandContext } from '../../src/cli/command.js';
import { stepSummary } from '../../src/cli/plan-output.js';
import { createLogger } from '../../src/log.js';
import type * as markdown from '../../src/render/markdown.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { runCli } from './run-cli.js';

vi.mock('../../src/render/markdown.js', async (importOriginal) => {
  const original = await importOriginal<typeof markdown>();
  return { ...original, renderMarkdown: vi.fn(original.renderMarkdown) };
});

const dir = mkdtempSync(join(tmpdir(), 'docops-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ctx(env: Record<string, string>): CommandContext {
  const sink = { write: () => true };
  return {
    io: { stdout: sink, stderr: sink, env },
    logger: createLogger({ stream: sink, env: {}, level: 'silent' }),
    global: { sandbox: false, concurrency: 1, prune: [], invite: false, logLevel: 'silent', help: false },
    values: {},
    onCleanup: () => {},
    addSecret: () => {},
  };
}

describe('stepSummary', () => {
  it('does not render the markdown outside GitHub Actions, nor without GITHUB_STEP_SUMMARY', async () => {
    let made = 0;
    const markdown = (): string => (made++, '# plan');
    await stepSummary(ctx({}), markdown);
    await stepSummary(ctx({ GITHUB_ACTIONS: 'true' }), markdown);
    await stepSummary(ctx({ GITHUB_STEP_SUMMARY: join(dir, 'not-in-actions.md') }), markdown);
    expect(made).toBe(0);
  });

  it('renders and appends it in GitHub Actions', async () => {
    const file = join(dir, 'summary.md');
    let made = 0;
    await stepSummary(ctx({ GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: file }), () => (made++, '# plan'));
    expect(made).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe('# plan\n\n');
  });
});

describe('plan and apply', () => {
  it('render no markdown plan for a text run outside GitHub Actions (its number formatting costs every run)', async () => {
    vi.mocked(renderMarkdown).mockClear();
    const r = await runCli(['plan', '-m', 'config.example/manifests', '--sandbox']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Plan:');
    expect(renderMarkdown).not.toHaveBeenCalled();
  });

  it('render it once for the step summary in GitHub Actions', async () => {
    vi.mocked(renderMarkdown).mockClear();
    const file = join(dir, 'plan-summary.md');
    const r = await runCli(['plan', '-m', 'config.example/manifests', '--sandbox'], {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: file,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(renderMarkdown).toHaveBeenCalledTimes(1);
    expect(readFileSync(file, 'utf8')).toContain('docops');
  });
});
