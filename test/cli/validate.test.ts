import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docops-validate-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const team = (title: string, extra = '') =>
  `apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: org-demo\nspec:\n  title: ${title}\n${extra}`;

describe('docops validate', () => {
  it('counts documents and objects of a valid directory, with no token and no network', async () => {
    await writeFile(join(dir, 'teams.yaml'), `${team('Platform')}---\n${team('Writers')}`);
    const r = await runCli(['validate', '-m', dir, '--log-level', 'silent']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('2 documents, 2 objects valid\n');
  });

  it('a broken manifest exits 1 with file:line:column: message on stderr and nothing on stdout', async () => {
    const file = join(dir, 'teams.yaml');
    await writeFile(file, team('Platform', '  colour: blue\n'));
    const r = await runCli(['validate', '-m', dir, '--log-level', 'silent']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:7:3: .*colour`, 'm'));
  });

  it('a directory with no manifest (empty, or only other files) exits 1 for validate, plan and apply; no request', async () => {
    for (const files of [[], ['README.md', 'notes.txt']]) {
      for (const f of files) await writeFile(join(dir, f), 'not a manifest\n');
      for (const command of ['validate', 'plan', 'apply']) {
        const r = await runCli([command, '-m', dir, '--log-level', 'silent', '--api-url', 'http://127.0.0.1:9/v1'], {
          DOCOPS_TOKEN: 'tok',
        });
        expect(r.code, `${command}: ${r.stderr}`).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(`no manifests in ${dir}: it holds no .yaml or .yml file`);
      }
    }
  });

  it('a directory holding a daemon config says so and names the manifests directory the config points to', async () => {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'deploy', 'org-manifests'), { recursive: true });
    await writeFile(join(dir, 'deploy', 'docops.yaml'), 'manifests: ./org-manifests\nmode: plan\n');
    await writeFile(join(dir, 'deploy', 'org-manifests', 'teams.yaml'), team('Platform'));
    const r = await runCli(['validate', '-m', join(dir, 'deploy'), '--log-level', 'silent']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${join(dir, 'deploy', 'docops.yaml')}:1:12: this is a docops daemon config, not a manifest: the manifests it names are in ${join(dir, 'deploy', 'org-manifests')} (validate them with -m ${join(dir, 'deploy', 'org-manifests')})`,
    );
    expect(r.stderr).toContain('1 validation error:'); // nothing else: no envelope errors about the config's fields
    const direct = await runCli(['validate', '-m', join(dir, 'deploy', 'docops.yaml'), '--log-level', 'silent']);
    expect(direct.code).toBe(1);
    expect(direct.stderr).toContain('this is a docops daemon config, not a manifest');
    // Without `manifests:` (DOCOPS_MANIFESTS names it), a document of only daemon config fields is still recognised.
    await writeFile(join(dir, 'deploy', 'docops.yaml'), 'mode: plan\nschedule: "*/5 * * * *"\n');
    const unnamed = await runCli(['validate', '-m', join(dir, 'deploy', 'docops.yaml'), '--log-level', 'silent']);
    expect(unnamed.stderr).toContain(
      `${join(dir, 'deploy', 'docops.yaml')}:1:1: this is a docops daemon config, not a manifest: point -m at the manifests directory`,
    );
  });

  it('--prune of a kind docops never deletes is a usage error before any request', async () => {
    await writeFile(join(dir, 'teams.yaml'), team('Platform'));
    const r = await runCli(
      ['plan', '-m', dir, '--prune', 'Organization', '--log-level', 'silent', '--api-url', 'http://127.0.0.1:9/v1'],
      { DOCOPS_TOKEN: 'tok' },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '--prune Organization: docops never deletes these objects, so pruning them means nothing',
    );
  });

  describe('${VAR} reads only the variables the user allows', () => {
    const withVar = (expr: string) => writeFile(join(dir, 'teams.yaml'), team(`"Team ${expr}"`));

    it('a variable not allowed is an error at its place saying how to allow it; its value is never printed', async () => {
      await withVar('${TEAM_SUFFIX}');
      const r = await runCli(['validate', '-m', dir, '--log-level', 'silent'], { TEAM_SUFFIX: 'hidden-value' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `${join(dir, 'teams.yaml')}:6:10: environment variable "TEAM_SUFFIX" is not allowed in manifests: allow it with --allow-env TEAM_SUFFIX`,
      );
      expect(r.stderr + r.stdout).not.toContain('hidden-value');
    });

    it('--allow-env (names or PREFIX_*, repeatable, comma-separated) and DOCOPS_ALLOW_ENV allow it; the flag wins', async () => {
      await withVar('${TEAM_SUFFIX}');
      for (const [args, env] of [
        [['--allow-env', 'TEAM_SUFFIX'], {}],
        [['--allow-env', 'OTHER,TEAM_*'], {}],
        [['--allow-env', 'OTHER', '--allow-env', 'TEAM_SUFFIX'], {}],
        [[], { DOCOPS_ALLOW_ENV: 'TEAM_*' }],
      ] as [string[], Record<string, string>][]) {
        const r = await runCli(['validate', '-m', dir, '--log-level', 'silent', ...args], { TEAM_SUFFIX: 'x', ...env });
        expect(r.code, `${args.join(' ')} ${JSON.stringify(env)}: ${r.stderr}`).toBe(0);
      }
      const overridden = await runCli(['validate', '-m', dir, '--log-level', 'silent', '--allow-env', 'OTHER'], {
        TEAM_SUFFIX: 'x',
        DOCOPS_ALLOW_ENV: 'TEAM_*',
      });
      expect(overridden.code).toBe(1);
      const bad = await runCli(['validate', '-m', dir, '--log-level', 'silent', '--allow-env', 'TEAM-SUFFIX'], {});
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(
        '--allow-env: "TEAM-SUFFIX" is not a variable name or a prefix ending in * (e.g. TEAM_TITLE or TEAM_*)',
      );
    });

    it('the API token never gets in: not as DOCOPS_TOKEN, not through an allowed copy, not from --token-file', async () => {
      const token = 'tok-cli-0123456789abcdef';
      const tokenFile = join(dir, 'token.txt');
      await writeFile(tokenFile, `${token}\n`);
      const cases: [string, string[], Record<string, string>, string][] = [
        ['${DOCOPS_TOKEN}', ['--allow-env', 'DOCOPS_*'], { DOCOPS_TOKEN: token }, "is docops's own"],
        ['${COPY}', ['--allow-env', 'COPY'], { DOCOPS_TOKEN: token, COPY: token }, 'holds the API token'],
        [
          '${COPY}',
          ['--allow-env', 'COPY', '--token-file', tokenFile],
          { COPY: `Bearer ${token}` },
          'holds the API token',
        ],
      ];
      for (const [expr, args, env, message] of cases) {
        await withVar(expr);
        for (const command of ['validate', 'plan']) {
          const r = await runCli(
            [command, '-m', dir, '--log-level', 'silent', '--api-url', 'http://127.0.0.1:9/v1', ...args],
            env,
          );
          expect(r.code, r.stderr).toBe(1);
          expect(r.stderr).toContain(message);
          expect(r.stderr + r.stdout).not.toContain(token);
        }
      }
    });
  });

  it('validates the shipped example', async () => {
    const r = await runCli(['validate', '-m', 'config.example/manifests', '--log-level', 'silent']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+ documents, \d+ objects valid\n$/);
  });
});
