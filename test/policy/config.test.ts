/**
 * `policy:` in docops.yaml: inline rules are validated at their file:line:column in the config, `path` is read
 * relative to the config, and a policy section that loads no rule is an error. The daemon refuses an approver
 * token that is the reconcile secret.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ValidationError, formatIssue } from '../../src/model/errors.js';
import { loadConfig } from '../../src/config/load.js';
import { DaemonApprovals } from '../../src/policy/daemon-approvals.js';
import { createLogger } from '../../src/log.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('docops-policy-config-');
afterAll(() => tmp.remove());
let n = 0;

async function load(text: string) {
  const file = tmp.write(`c${++n}/docops.yaml`, text);
  tmp.write(`c${n}/manifests/.keep`, '');
  return loadConfig(file, { env: {} });
}

async function issues(text: string): Promise<string[]> {
  try {
    await load(text);
  } catch (err) {
    if (err instanceof ValidationError)
      return err.issues.map((i) => formatIssue({ ...i, file: i.file.replace(/^.*\//, '') }));
    throw err;
  }
  return [];
}

describe('policy in docops.yaml', () => {
  it('inline rules load, compiled, with their positions in the config', async () => {
    const config = await load(
      'manifests: ./manifests\npolicy:\n  approvers: { githubTeam: acme/security }\n  rules:\n    - name: saml\n      when: change.kind == "SamlProvider"\n      outcome: require-approval\n      message: m\n',
    );
    expect(config.policy?.rules.map((r) => [r.name, r.source.line, r.source.column])).toEqual([['saml', 5, 13]]);
    expect(config.policy?.approvers).toEqual({ githubTeam: 'acme/security' });
  });

  it("bad inline rules are errors at their file:line:column in the config, with the config's other problems", async () => {
    const got = await issues(
      'manifests: ./manifests\nconcurrency: 0\npolicy:\n  rules:\n    - name: a\n      when: change.kind = "Site"\n      outcome: deny\n      message: m\n    - name: b\n      when: change.kind == "Site"\n      outcome: stop\n      message: m\n',
    );
    expect(got).toEqual([
      expect.stringMatching(/^docops\.yaml:2:14: concurrency/),
      expect.stringMatching(/^docops\.yaml:6:\d+: rule a: when: /),
      expect.stringMatching(/^docops\.yaml:11:16: policy\.rules\[1\]\.outcome/),
    ]);
  });

  it('a policy section that loads no rule is an error, never a pass', async () => {
    expect(await issues('manifests: ./manifests\npolicy: {}\n')).toEqual([
      'docops.yaml:2:1: the policy loads no rule: a configured policy that loads no rule is an error, never a pass',
    ]);
    expect(await issues('manifests: ./manifests\npolicy:\n  rules: []\n')).toEqual([
      expect.stringMatching(/^docops\.yaml:3:10: policy\.rules/),
    ]);
  });

  it("path is relative to the config; its files' problems are at their own positions", async () => {
    tmp.write(
      `c${n + 1}/policies/a.yaml`,
      'rules:\n  - { name: a, when: \'change.kind == "Team"\', outcome: warn, message: m }\n',
    );
    const config = await load('manifests: ./manifests\npolicy:\n  path: policies\n');
    expect(config.policy?.rules.map((r) => r.name)).toEqual(['a']);
    tmp.write(
      `c${n + 1}/policies/a.yaml`,
      'rules:\n  - { name: a, when: \'change.knd == "Team"\', outcome: warn, message: m }\n',
    );
    await expect(load('manifests: ./manifests\npolicy:\n  path: policies\n')).rejects.toThrow(
      /policies\/a\.yaml:2:\d+: rule a: when: No such key: knd/,
    );
    expect(await issues('manifests: ./manifests\npolicy:\n  path: nowhere\n')).toEqual([
      expect.stringMatching(/^docops\.yaml:3:9: policy\.path: cannot read policy .*ENOENT/),
    ]);
  });

  it('the approver token must not be the reconcile secret, and must be long enough', async () => {
    const config = await load(
      'manifests: ./manifests\npolicy:\n  rules: [{ name: a, when: \'change.kind == "Team"\', outcome: warn, message: m }]\n',
    );
    const deps = {
      env: {},
      logger: createLogger({ level: 'silent' }),
      kinds: [],
      trigger: () => {},
      commit: async () => undefined,
    };
    const secret = 'same-secret-0123456789';
    await expect(
      DaemonApprovals.start(
        {
          policy: config.policy!,
          approvals: { token: secret },
          manifestsDir: '.',
          journalDir: '.',
          reconcileSecret: secret,
        },
        deps,
      ),
    ).rejects.toThrow(/must not be the reconcile secret/);
    await expect(
      DaemonApprovals.start(
        { policy: config.policy!, manifestsDir: '.', journalDir: '.' },
        { ...deps, env: { DOCOPS_APPROVER_TOKEN: 'short' } },
      ),
    ).rejects.toThrow(/at least 16 characters/);
    await expect(
      DaemonApprovals.start(
        {
          policy: config.policy!,
          approvals: { github: { repository: 'a/b', apiUrl: 'http://127.0.0.1:1', pollMs: 60_000 } },
          manifestsDir: '.',
          journalDir: '.',
        },
        deps,
      ),
    ).rejects.toThrow(/names no approvers/);
    const ok = await DaemonApprovals.start({ policy: config.policy!, manifestsDir: '.', journalDir: '.' }, deps);
    expect(ok.token).toBeUndefined(); // POST /approve is off without a token
  });
});
