import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError, ValidationError } from '../../src/model/errors.js';
import { loadConfig } from '../../src/config/load.js';
import { parseListen } from '../../src/config/checks.js';

function configFile(text: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'docops-config-'));
  const file = join(dir, 'docops.yaml');
  writeFileSync(file, text);
  return { dir, file };
}

describe('loadConfig', () => {
  it('resolves paths against the config file and fills defaults', async () => {
    const { dir, file } = configFile(
      'manifests: ./manifests\ntokenFile: secrets/token\nschedule: "*/5 * * * *"\nprune: { Team: true }\n',
    );
    const config = await loadConfig(file, { env: {} });
    expect(config.manifestsDir).toBe(join(dir, 'manifests'));
    expect(config.tokenFile).toBe(join(dir, 'secrets/token'));
    expect(config).toMatchObject({
      mode: 'apply',
      concurrency: 8,
      schedule: '*/5 * * * *',
      prune: { Team: true },
      invite: false,
      listen: { host: '0.0.0.0', port: 8080 },
      debounceMs: 500,
      retry: { initialMs: 1000, maxMs: 300000 },
      sandbox: false,
    });
    expect(config.reconcileSecret).toBeUndefined();
  });

  it('follows the audit log by default; informer: sets the poll, the resync and the overlap, or turns it off', async () => {
    const defaults = await loadConfig(configFile('manifests: ./m\n').file, { env: {} });
    expect(defaults.informer).toEqual({
      enabled: true,
      pollMs: 30_000,
      resyncMs: 240 * 60_000,
      overlapMs: 60_000,
      maxOverlapMs: 3_600_000,
    });
    expect(defaults.listLagMs).toBe(5_000);
    const set = await loadConfig(
      configFile(
        'manifests: ./m\nlistLagSeconds: 0\ninformer: { pollSeconds: 10, resyncMinutes: 0, overlapSeconds: 5, maxOverlapSeconds: 600 }\n',
      ).file,
      { env: {} },
    );
    expect(set.informer).toEqual({
      enabled: true,
      pollMs: 10_000,
      resyncMs: 0,
      overlapMs: 5_000,
      maxOverlapMs: 600_000,
    });
    expect(set.listLagMs).toBe(0);
    expect(
      (await loadConfig(configFile('manifests: ./m\ninformer: { enabled: false }\n').file, { env: {} })).informer
        ?.enabled,
    ).toBe(false);
    const bad = (await loadConfig(configFile('manifests: ./m\ninformer: { pollSeconds: -1, every: 3 }\n').file, {
      env: {},
    }).catch((e: unknown) => e)) as ValidationError;
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad.issues.map((i) => i.message).join('\n')).toMatch(/pollSeconds[\s\S]*every|every[\s\S]*pollSeconds/);
  });

  it('reports every problem at once with file:line:column', async () => {
    const { file } = configFile(
      ['manifests: ./m', 'mode: dry', 'schedule: "61 * * * *"', 'bogus: 1', 'safety: 3', ''].join('\n'),
    );
    const error = await loadConfig(file, { env: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    expect(issues.map((i) => `${i.line}:${i.column}`).sort()).toEqual(['2:7', '3:11', '4:1', '5:9']); // schema and cron, together
    expect(issues.find((i) => i.line === 2)?.message).toMatch(/mode/);
    expect(issues.find((i) => i.line === 4)?.message).toMatch(/bogus/);
  });

  it('every problem at once: a part the schema refuses hides no problem of another part', async () => {
    const { file } = configFile(
      [
        'manifests: ./m',
        'mode: dry',
        'notify:',
        '  - { type: webhook, url: "https://hooks.example/x", secretEnv: UNSET_KEY }',
        'policy:',
        '  approvals: { token: short }',
        '  rules:',
        '    - name: a',
        '      when: chnge.kind == "Team"',
        '      outcome: warn',
        '      message: m',
        '',
      ].join('\n'),
    );
    const error = (await loadConfig(file, { env: {} }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((i) => `${i.line}: ${i.message.replace(/ \(.*$/, '')}`)).toEqual([
      '2: mode: must be one of apply, plan',
      '4: notify[0].secretEnv: the variable it names must hold the signing secret',
      '6: policy.approvals.token: must be at least 16 characters',
      '9: rule a: when: Unknown variable: chnge',
    ]);
  });

  it('every problem at once: a policy path that cannot be read hides no problem of the inline rules', async () => {
    const { file } = configFile(
      [
        'manifests: ./m',
        'policy:',
        '  path: ./nowhere',
        '  rules:',
        '    - { name: a, when: \'chnge.kind == "Team"\', outcome: warn, message: m }',
        '    - { name: a, when: \'change.kind == "Team"\', outcome: warn, message: m }',
        '',
      ].join('\n'),
    );
    const error = (await loadConfig(file, { env: {} }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    const lines = error.issues.map(
      (i) => `${i.line}: ${i.message.replace(/ \(.*$/, '').replace(/\S*nowhere/, 'NOWHERE')}`,
    );
    expect(lines).toEqual([
      '3: policy.path: cannot read policy NOWHERE: ENOENT',
      '5: rule a: when: Unknown variable: chnge',
      '6: rule a: another rule has this name',
    ]);
  });

  it('checks the cron expression, the port and the retry bounds', async () => {
    const { file } = configFile(
      [
        'manifests: ./m',
        'schedule: "61 * * * *"',
        'retry: { initialMs: 10, maxMs: 5 }',
        'listen: 0.0.0.0:70000',
        '',
      ].join('\n'),
    );
    const error = (await loadConfig(file, { env: {} }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((i) => [i.line, i.message.split(':')[0]])).toEqual([
      [2, 'schedule'],
      [3, 'retry.maxMs'],
      [4, 'listen'],
    ]);
    expect(error.message).toMatch(/docops\.yaml:2:\d+: schedule: "61 \* \* \* \*" is not a valid cron expression/);
  });

  it('interpolates ${VAR} and lets DOCOPS_* variables and flags override the file', async () => {
    const { file } = configFile('manifests: ./m\napiUrl: ${API}\nmode: apply\nlisten: 127.0.0.1:9000\n');
    const config = await loadConfig(file, {
      env: {
        API: 'https://file.example/v1',
        DOCOPS_MODE: 'plan',
        DOCOPS_CONCURRENCY: '3',
        DOCOPS_MANIFESTS: 'elsewhere',
        DOCOPS_RECONCILE_SECRET: 's'.repeat(20),
      },
      overrides: { listen: '127.0.0.1:0' },
      cwd: '/work-dir',
    });
    expect(config).toMatchObject({
      apiUrl: 'https://file.example/v1',
      mode: 'plan',
      concurrency: 3,
      listen: { host: '127.0.0.1', port: 0 },
      reconcileSecret: 's'.repeat(20),
    });
    expect(config.manifestsDir).toBe('/work-dir/elsewhere');
  });

  it('rejects bad environment values without echoing the secret', async () => {
    const { file } = configFile('manifests: ./m\n');
    const error = (await loadConfig(file, {
      env: { DOCOPS_MODE: 'yolo', DOCOPS_CONCURRENCY: 'many', DOCOPS_RECONCILE_SECRET: 'short-secret' },
    }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(/DOCOPS_MODE=yolo/);
    expect(error.message).toMatch(/DOCOPS_CONCURRENCY=many/);
    expect(error.message).toMatch(/DOCOPS_RECONCILE_SECRET: /);
    expect(error.message).not.toMatch(/short-secret/);
  });

  it('requires a manifests directory from the file or the environment', async () => {
    const { file } = configFile('mode: plan\n');
    await expect(loadConfig(file, { env: {} })).rejects.toThrow(/manifests: required/);
    await expect(loadConfig(file, { env: { DOCOPS_MANIFESTS: '/m' } })).resolves.toMatchObject({
      manifestsDir: '/m',
    });
  });

  it('reads the reconcile secret from a file next to the config', async () => {
    const { dir, file } = configFile('manifests: ./m\nreconcileSecretFile: secret.txt\n');
    writeFileSync(join(dir, 'secret.txt'), 'a-long-enough-secret-value\n');
    expect((await loadConfig(file, { env: {} })).reconcileSecret).toBe('a-long-enough-secret-value');
  });

  it('validates the safety section with its own schema (internal refs included)', async () => {
    const good = configFile('manifests: ./m\nsafety:\n  deletes: { fraction: 0.5 }\n');
    expect((await loadConfig(good.file, { env: {} })).safety).toEqual({ deletes: { fraction: 0.5 } });
    const bad = configFile('manifests: ./m\nsafety:\n  deletes: { fraction: lots }\n  nonsense: true\n');
    const error = (await loadConfig(bad.file, { env: {} }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((i) => i.line).sort()).toEqual([3, 4]);
  });

  it('parses HOST:PORT', () => {
    expect(parseListen('0.0.0.0:8080')).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(parseListen('[::1]:0')).toEqual({ host: '::1', port: 0 });
    expect(parseListen('localhost')).toBeUndefined();
    expect(parseListen('h:70000')).toBeUndefined();
  });
});

describe('ha', () => {
  it("is off by default; kubernetes takes client-go's timings unless given", async () => {
    expect((await loadConfig(configFile('manifests: ./m\n').file, { env: {} })).ha).toBeUndefined();
    expect(
      (await loadConfig(configFile('manifests: ./m\nha: { mode: "off", leaseName: x }\n').file, { env: {} })).ha,
    ).toBeUndefined();
    const config = await loadConfig(configFile('manifests: ./m\nha:\n  mode: kubernetes\n  namespace: ${NS}\n').file, {
      env: { NS: 'docs' },
    });
    expect(config.ha).toEqual({
      mode: 'kubernetes',
      namespace: 'docs',
      leaseName: 'docops',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    });
  });

  it('reports bad fields and timings that do not nest, each at its file:line:column', async () => {
    const text = [
      'manifests: ./m',
      'ha:',
      '  mode: zookeeper',
      '  leaseName: Not_A_Name',
      '  leaseDurationMs: 3000',
      '  renewDeadlineMs: 3000',
      '  retryPeriodMs: 2600',
      '  extra: 1',
      '',
    ].join('\n');
    const error = (await loadConfig(configFile(text).file, { env: {} }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    const at = Object.fromEntries(error.issues.map((i) => [`${i.line}:${i.column}`, i.message]));
    expect(Object.keys(at).sort()).toEqual(['3:9', '4:14', '6:20', '7:18', '8:3'].sort());
    expect(at['3:9']).toMatch(/mode/);
    expect(at['4:14']).toMatch(/leaseName/);
    expect(at['6:20']).toMatch(/^ha\.renewDeadlineMs: must be below ha\.leaseDurationMs \(3000\)/);
    expect(at['7:18']).toMatch(/^ha\.retryPeriodMs: 1\.2 × it must be below ha\.renewDeadlineMs \(3000\)/);
    expect(at['8:3']).toMatch(/unknown field "extra"/);
  });
});

describe('kinds: ownership modes per kind', () => {
  it("reads each kind's mode; a kind the registry does not know or a mode that does not exist is an error at its place", async () => {
    const config = await loadConfig(
      configFile('manifests: ./m\nkinds:\n  Members: { mode: observe }\n  Team: { mode: additive }\n').file,
      { env: {} },
    );
    expect(config.kinds).toEqual({ Members: { mode: 'observe' }, Team: { mode: 'additive' } });
    const error = (await loadConfig(
      configFile('manifests: ./m\nkinds:\n  Widget: { mode: observe }\n  Team: { mode: readonly }\n').file,
      { env: {} },
    ).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((i) => i.line).sort()).toEqual([3, 4]);
  });

  it('prune of a kind in additive or observe mode is a contradiction, said at the mode', async () => {
    const text = [
      'manifests: ./m',
      'prune: { Members: true, Team: true }',
      'kinds:',
      '  Members: { mode: additive }',
      '  Team: { mode: authoritative }',
      '',
    ].join('\n');
    const error = (await loadConfig(configFile(text).file, { env: {} }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((i) => `${i.line}:${i.column}: ${i.message}`)).toEqual([
      '4:20: kinds.Members.mode: additive never deletes what no manifest writes, so prune.Members: true contradicts it (remove one of them)',
    ]);
  });
});

describe('kinds: drift per kind, and where proposals go', () => {
  it('reads drift and proposals.github (branch defaulted, tokenFile resolved beside the config)', async () => {
    const text = [
      'manifests: ./m',
      'kinds:',
      '  Members: { drift: propose }',
      '  Team: { mode: additive, drift: report }',
      'proposals:',
      '  github: { repository: acme/docs-org, tokenFile: gh-token }',
      '',
    ].join('\n');
    const { file } = configFile(text);
    const config = await loadConfig(file, { env: {} });
    expect(config.kinds).toEqual({ Members: { drift: 'propose' }, Team: { mode: 'additive', drift: 'report' } });
    expect(config.proposals).toEqual({
      github: {
        repository: 'acme/docs-org',
        apiUrl: 'https://api.github.com',
        tokenFile: join(dirname(file), 'gh-token'),
        branch: 'docops/drift',
      },
      // Where the token's fields are written, for the problems found when the daemon reads the token.
      at: { github: { file, line: 6, column: 3 }, tokenFile: { file, line: 6, column: 51 } },
    });
  });

  it('propose without proposals.github, and any kept drift beside observe, are errors at the drift', async () => {
    const text = [
      'manifests: ./m',
      'kinds:',
      '  Members: { drift: propose }',
      '  Team: { mode: observe, drift: report }',
      '  Space: { drift: revert }',
      '',
    ].join('\n');
    const error = (await loadConfig(configFile(text).file, { env: {} }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((i) => `${i.line}:${i.column}: ${i.message}`)).toEqual([
      "3:21: kinds.Members.drift: propose needs proposals.github (the manifests' repository) to propose in",
      '4:33: kinds.Team.drift: observe never writes, so it reverts no drift to keep (remove drift or the mode)',
    ]);
    const bad = (await loadConfig(configFile('manifests: ./m\nkinds:\n  Team: { drift: adopt }\n').file, {
      env: {},
    }).catch((e: unknown) => e)) as ValidationError;
    expect(bad.issues.map((i) => i.line)).toEqual([3]);
  });
});

describe('organizations: and shard:', () => {
  const orgs = [
    'organizations:',
    '  - { id: org-a, manifests: ./a, tokenFile: ./a.token, schedule: "*/5 * * * *", prune: { Team: true } }',
    '  - { id: org-b, manifests: ./b, tokenEnv: ORG_B_TOKEN }',
  ];

  it('reads each organization with its own manifests and token source, paths relative to the file', async () => {
    const { dir, file } = configFile(
      [...orgs, 'schedule: "0 * * * *"', 'shard: { index: 1, count: 2 }', ''].join('\n'),
    );
    const config = await loadConfig(file, { env: {} });
    expect(config.organizations).toEqual([
      {
        id: 'org-a',
        manifestsDir: join(dir, 'a'),
        tokenFile: join(dir, 'a.token'),
        schedule: '*/5 * * * *',
        prune: { Team: true },
        at: { tokenFile: { file, line: 2, column: 45 } },
      },
      {
        id: 'org-b',
        manifestsDir: join(dir, 'b'),
        tokenEnv: 'ORG_B_TOKEN',
        at: { tokenEnv: { file, line: 3, column: 44 } },
      },
    ]);
    expect(config.shard).toEqual({ mode: 'static', index: 1, count: 2 });
    expect(config.schedule).toBe('0 * * * *');
  });

  it('reports what the schema cannot see, every problem at its line', async () => {
    const { file } = configFile(
      [
        'manifests: ./m',
        'organizations:',
        '  - { id: org-a, manifests: ./a, tokenEnv: A }',
        '  - { id: org-a, manifests: ./a/inner, tokenEnv: B, schedule: "61 * * * *" }',
        '  - { id: org-c, manifests: ./c, token: abc }',
        'shard: { index: 2, count: 2 }',
        '',
      ].join('\n'),
    );
    const error = (await loadConfig(file, { env: {} }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    const said = error.issues.map((i) => `${i.line}: ${i.message}`).join('\n');
    expect(said).toMatch(/^1: manifests: not with organizations/m);
    expect(said).toMatch(/^4: organizations\[1\]\.id: org-a is already organizations\[0\]/m);
    expect(said).toMatch(/^4: organizations\[1\]\.schedule: "61 \* \* \* \*" is not a valid cron expression/m);
    expect(said).toMatch(/^4: organizations\[1\]\.manifests: overlaps the directory of organizations\[0\]/m);
    expect(said).toMatch(/^5: organizations\[2\]: give tokenFile or tokenEnv/m); // a file or a variable, never the token
    expect(said).not.toContain('abc');
    expect(said).toMatch(/^6: shard\.index: must be below shard\.count/m);
  });

  it("one organization's problem the schema finds hides no problem of another's", async () => {
    const { file } = configFile(
      [
        'organizations:',
        '  - { id: org-a, manifests: ./a, tokenEnv: A, bogus: 1 }',
        '  - id: org-b',
        '    manifests: ./b',
        '    tokenEnv: B',
        '    notify: [{ type: slack, url: "https://hooks.example/x", secretEnv: KEY }]',
        '',
      ].join('\n'),
    );
    const error = (await loadConfig(file, { env: {} }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((i) => `${i.line}: ${i.message.replace(/ \(.*$/, '')}`)).toEqual([
      '2: organizations[0]: unknown field "bogus"',
      '6: organizations[1].notify[0].secretEnv: only a webhook target signs its body',
    ]);
  });

  it('a shard needs organizations; dynamic shards need ha on Kubernetes Leases', async () => {
    const alone = (await loadConfig(configFile('manifests: ./m\nshard: { index: 0, count: 2 }\n').file, {
      env: {},
    }).catch((e: unknown) => e)) as ValidationError;
    expect(alone.issues.map((i) => i.message)).toEqual([
      'shard: only with organizations (shards spread organizations over daemons)',
    ]);
    const dynamic = (await loadConfig(configFile([...orgs, 'shard: { leases: 4 }', ''].join('\n')).file, {
      env: {},
    }).catch((e: unknown) => e)) as ValidationError;
    expect(dynamic.issues.map((i) => i.message)).toEqual([
      'shard.leases: dynamic shards are held through Kubernetes Leases; set ha.mode: kubernetes',
    ]);
    const ok = await loadConfig(
      configFile([...orgs, 'shard: { leases: 4 }', 'ha: { mode: kubernetes }', ''].join('\n')).file,
      { env: {} },
    );
    expect(ok.shard).toEqual({ mode: 'dynamic', leases: 4 });
  });
});
