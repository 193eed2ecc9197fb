import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { codePaths, exportedIdentifiers, missingPaths } from '../docs/doc-rules.js';
import { runCli } from './run-cli.js';

describe('docops usage', () => {
  it('--help lists every command', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const c of COMMANDS) expect(r.stdout).toMatch(new RegExp(`^  ${c.name} `, 'm'));
    for (const c of ['whoami', 'orgs', 'init']) expect(COMMANDS.map((e) => e.name)).toContain(c);
    expect(r.stderr).toBe('');
    // It says what it is for: GitBook, and the API it drives.
    expect(r.stdout.split('\n')[0]).toContain('GitOps for a GitBook organization');
    expect(r.stdout).toContain('https://api.gitbook.com/v1');
  });

  it.each(['validate', 'plan', 'apply'])('%s --help shows a description, flags and examples', async (cmd) => {
    const r = await runCli([cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: docops ${cmd}`);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toMatch(new RegExp(`^  docops ${cmd} `, 'm'));
    for (const flag of ['--manifests', '--token-file', '--log-level', '--log-format']) expect(r.stdout).toContain(flag);
    expect((await runCli([cmd, '-h'])).stdout).toBe(r.stdout);
    expect((await runCli(['help', cmd])).stdout).toBe(r.stdout);
  });

  // The newcomer's path (issue 17): every command has examples, and lists only the flags it uses.
  it.each(COMMANDS.map((c) => c.name))('%s --help has examples of itself', async (cmd) => {
    const r = await runCli([cmd, '--help']);
    expect(r.code, r.stderr).toBe(0);
    const examples = r.stdout.split(/^Examples:\n/m)[1] ?? '';
    expect(examples).toMatch(new RegExp(`^  (\\S+=\\S+ )*docops ${cmd}\\b`, 'm'));
  });

  it.each([
    ['validate', ['--api-url', '--sandbox', '--concurrency', '--prune', '--invite']],
    ['export', ['--prune', '--invite']],
    ['undo', ['--prune', '--invite']],
    ['whoami', ['--prune', '--invite', '--concurrency', '--manifests']],
    ['orgs', ['--prune', '--invite', '--concurrency', '--manifests']],
    ['init', ['--prune', '--invite', '--manifests']],
    ['pr-comment', ['--api-url', '--sandbox', '--concurrency', '--prune', '--invite', '--token-file']],
  ] as const)('%s --help lists only the flags it uses', async (cmd, unused) => {
    const r = await runCli([cmd, '--help']);
    expect(r.stdout).toContain('--log-level');
    for (const flag of unused) expect(r.stdout).not.toMatch(new RegExp(`${flag}\\b`));
  });

  it('a global flag a command does not use is still accepted (scripts pass one set of flags to every command)', async () => {
    const r = await runCli([
      'validate',
      '-m',
      'config.example/manifests',
      '--prune',
      'Team',
      '--concurrency',
      '2',
      '--log-level',
      'silent',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/valid\n$/);
  });

  it('plan and apply still take every global flag', async () => {
    for (const cmd of ['plan', 'apply']) {
      const r = await runCli([cmd, '--help']);
      for (const flag of ['--api-url', '--sandbox', '--sandbox-state', '--concurrency', '--prune', '--invite'])
        expect(r.stdout).toContain(flag);
    }
  });

  it('plan --help documents its own flags', async () => {
    const r = await runCli(['plan', '--help']);
    for (const flag of ['--format', '--detailed-exitcode', '--out']) expect(r.stdout).toContain(flag);
  });

  it('sandbox delegates to the sandbox command, help included', async () => {
    const r = await runCli(['sandbox', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: docops sandbox');
    const bad = await runCli(['sandbox', '--seed', 'nope']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--seed');
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const r = await runCli(['--version']);
    expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('an unknown flag is a usage error with a hint', async () => {
    const r = await runCli(['plan', '-m', 'x', '--formt', 'json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown flag --formt');
    expect(r.stderr).toContain('Did you mean --format?');
    expect(r.stderr).toContain('docops plan --help');
  });

  it('a stray argument is a usage error', async () => {
    const r = await runCli(['validate', 'manifests']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unexpected argument manifests');
  });

  it('an unknown or missing command is a usage error', async () => {
    const r = await runCli(['plna']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown command "plna". Did you mean `docops plan`?');
    expect((await runCli([])).code).toBe(1);
  });

  it('plan and apply without a token or --sandbox explain how to authenticate', async () => {
    for (const cmd of ['plan', 'apply']) {
      const r = await runCli([cmd, '-m', 'does-not-matter'], {});
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/no API token: set DOCOPS_TOKEN, pass --token-file FILE, or add --sandbox/);
      expect(r.stdout).toBe('');
    }
  });

  it('the daemon without a token says why in one line: no "stopping … stopped" of a daemon that never started (issue 34 §9)', async () => {
    const r = await runCli(['daemon', '-c', 'config.example/docops.yaml', '--listen', '127.0.0.1:0'], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no API token: set tokenFile in the config or DOCOPS_TOKEN/);
    expect(r.stderr).not.toMatch(/stopping|stopped/);
  });

  it('checks flag values', async () => {
    const cases: [string[], RegExp][] = [
      [['plan', '-m', 'x', '--sandbox', '--concurrency', '0'], /--concurrency must be a positive integer/],
      [['plan', '-m', 'x', '--sandbox', '--format', 'yaml'], /--format must be one of text, markdown, json/],
      [['plan', '-m', 'x', '--log-level', 'loud'], /--log-level must be one of/],
      [['plan', '-m', 'x', '--log-format', 'xml'], /--log-format must be one of json, pretty/],
      [['plan', '-m', 'x', '--sandbox', '--api-url', 'http://127.0.0.1:1/v1'], /--sandbox starts its own API/],
      [['plan', '--sandbox'], /missing -m DIR/],
    ];
    for (const [argv, message] of cases) {
      const r = await runCli(argv, { DOCOPS_TOKEN: 'x' });
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stderr).toMatch(message);
    }
  });
});

// Help speaks to users, as the user docs do (test/docs/links.test.ts): no source or test path, no name from the
// code, and a doc it points to is one the repository has.
describe('docops help names no internal file', () => {
  const identifiers = exportedIdentifiers();
  const helps = [
    { name: 'docops --help', argv: ['--help'] },
    ...COMMANDS.map((c) => ({ name: `docops ${c.name} --help`, argv: [c.name, '--help'] })),
  ];
  it.each(helps)('$name', async ({ argv }) => {
    const r = await runCli(argv);
    expect(r.code, r.stderr).toBe(0);
    expect(codePaths(r.stdout)).toEqual([]);
    expect(missingPaths(r.stdout)).toEqual([]);
    expect(
      [...identifiers].filter((n) => new RegExp(`(?<![\\w$-])${n.replace(/\$/g, '\\$')}(?![\\w$-])`).test(r.stdout)),
    ).toEqual([]);
  });
});
