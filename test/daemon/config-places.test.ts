/**
 * Every config problem names its place (docs/daemon.md): a table of broken docops.yaml files, one problem each,
 * run through `docops daemon -c` (so the problems found when the file is read and those found when the daemon
 * starts — the secrets and files it reads then — are held alike). Each must exit 1 with
 * `docops.yaml:LINE:COLUMN: message`, LINE and COLUMN those of the offending key or value. A problem of the
 * environment names its variable instead.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCollecting } from '../helpers/output-collector.js';
import { tempDir } from '../helpers/pipeline.js';

const SAME = 'same-secret-0123456789';
const RULES = `  rules: [{ name: a, when: 'change.kind == "Team"', outcome: warn, message: m }]`;
const BASE = ['manifests: ./m', 'listen: 127.0.0.1:0'];

interface Case {
  name: string;
  lines: string[];
  /** Files beside the config. */
  files?: Record<string, string>;
  env?: Record<string, string>;
  /** `line:column` of the offending key or value. */
  at: string;
  says: RegExp;
}

const CASES: Case[] = [
  {
    name: 'the approver token is the reconcile secret',
    lines: [...BASE, `reconcileSecret: ${SAME}`, 'policy:', RULES, '  approvals:', `    token: ${SAME}`],
    at: '7:12',
    says: /policy\.approvals\.token: the approver token must not be the reconcile secret/,
  },
  {
    name: 'the approver token file holds the reconcile secret file',
    lines: [...BASE, 'reconcileSecretFile: ./rec', 'policy:', RULES, '  approvals:', '    tokenFile: ./approver'],
    files: { rec: SAME, approver: SAME },
    at: '7:16',
    says: /policy\.approvals\.tokenFile: the approver token must not be the reconcile secret/,
  },
  {
    name: 'the approver token file cannot be read',
    lines: [...BASE, 'policy:', RULES, '  approvals:', '    tokenFile: ./missing'],
    at: '6:16',
    says: /policy\.approvals\.tokenFile: cannot read the approver token file .*ENOENT/,
  },
  {
    name: 'the approver token file holds a short token',
    lines: [...BASE, 'policy:', RULES, '  approvals:', '    tokenFile: ./approver'],
    files: { approver: 'short' },
    at: '6:16',
    says: /policy\.approvals\.tokenFile: the approver token must be at least 16 characters/,
  },
  {
    name: 'the approver token written in the file is short',
    lines: [...BASE, 'policy:', RULES, '  approvals:', '    token: short'],
    at: '6:12',
    says: /policy\.approvals\.token: must be at least 16 characters/,
  },
  {
    name: 'pull-request approvals, and the policy names no approvers',
    lines: [...BASE, 'policy:', RULES, '  approvals:', '    github: { repository: acme/docs, tokenFile: ./gh }'],
    files: { gh: 'gh-token' },
    at: '6:5',
    says: /policy\.approvals\.github: the policy names no approvers/,
  },
  {
    name: 'pull-request approvals without a GitHub token',
    lines: [
      ...BASE,
      'policy:',
      '  approvers: { githubTeam: acme/security }',
      RULES,
      '  approvals:',
      '    github: { repository: acme/docs }',
    ],
    at: '7:5',
    says: /policy\.approvals\.github: no GitHub token/,
  },
  {
    name: 'pull-request approvals: the GitHub token file cannot be read',
    lines: [
      ...BASE,
      'policy:',
      '  approvers: { githubTeam: acme/security }',
      RULES,
      '  approvals:',
      '    github:',
      '      repository: acme/docs',
      '      tokenFile: ./missing',
    ],
    at: '9:18',
    says: /policy\.approvals\.github\.tokenFile: cannot read the GitHub token file .*ENOENT/,
  },
  {
    name: 'the reconcile secret file cannot be read',
    lines: [...BASE, 'reconcileSecretFile: ./missing'],
    at: '3:22',
    says: /reconcileSecretFile: cannot read .*ENOENT/,
  },
  {
    name: 'the reconcile secret file holds a short secret',
    lines: [...BASE, 'reconcileSecretFile: ./rec'],
    files: { rec: 'short' },
    at: '3:22',
    says: /reconcileSecretFile: the secret must be at least 16 characters/,
  },
  {
    name: 'drift proposals without a GitHub token',
    lines: [...BASE, 'kinds: { Team: { drift: propose } }', 'proposals:', '  github: { repository: acme/docs }'],
    at: '5:3',
    says: /proposals\.github: no GitHub token/,
  },
  {
    name: 'drift proposals: the GitHub token file cannot be read',
    lines: [
      ...BASE,
      'kinds: { Team: { drift: propose } }',
      'proposals:',
      '  github:',
      '    repository: acme/docs',
      '    tokenFile: ./missing',
    ],
    at: '7:16',
    says: /proposals\.github\.tokenFile: cannot read the GitHub token file .*ENOENT/,
  },
  {
    name: 'the token file cannot be read',
    lines: [...BASE, 'tokenFile: ./missing'],
    at: '3:12',
    says: /tokenFile: cannot read token file .*ENOENT/,
  },
  {
    name: "an organization's token file cannot be read",
    lines: ['listen: 127.0.0.1:0', 'organizations:', '  - id: org-a', '    manifests: ./a', '    tokenFile: ./missing'],
    at: '5:16',
    says: /organizations\[0\]\.tokenFile: cannot read .*ENOENT/,
  },
  {
    name: "an organization's token file is empty",
    lines: ['listen: 127.0.0.1:0', 'organizations:', '  - id: org-a', '    manifests: ./a', '    tokenFile: ./empty'],
    files: { empty: '\n' },
    at: '5:16',
    says: /organizations\[0\]\.tokenFile: the file is empty/,
  },
  {
    name: "an organization's token variable is not set",
    lines: [
      'listen: 127.0.0.1:0',
      'organizations:',
      '  - id: org-a',
      '    manifests: ./a',
      '    tokenEnv: ORG_A_TOKEN',
    ],
    at: '5:15',
    says: /organizations\[0\]\.tokenEnv: the variable it names is not set/,
  },
  {
    name: 'a safety limit out of range',
    lines: [...BASE, 'safety:', '  deletes:', '    fraction: 2'],
    at: '5:15',
    says: /safety\.deletes\.fraction: must be <= 1/,
  },
  {
    name: "an organization's safety limit out of range",
    lines: [
      'listen: 127.0.0.1:0',
      'organizations:',
      '  - id: org-a',
      '    manifests: ./a',
      '    tokenEnv: ORG_A_TOKEN',
      '    safety: { updates: { max: -1 } }',
    ],
    env: { ORG_A_TOKEN: 'org-a-token-0123456789' },
    at: '6:31',
    says: /organizations\[0\]\.safety\.updates\.max: must be >= 0/,
  },
  {
    name: 'a signing key variable that is not set',
    lines: [...BASE, 'notify:', '  - type: webhook', '    url: https://hooks.example/x', '    secretEnv: UNSET_KEY'],
    at: '6:16',
    says: /notify\[0\]\.secretEnv: the variable it names must hold the signing secret/,
  },
  {
    name: 'drift proposals without proposals',
    lines: [...BASE, 'kinds:', '  Team:', '    drift: propose'],
    at: '5:12',
    says: /kinds\.Team\.drift: propose needs proposals\.github/,
  },
  {
    name: 'a policy path that does not exist',
    lines: [...BASE, 'policy:', '  path: ./nowhere'],
    at: '4:9',
    says: /policy\.path: cannot read policy .*ENOENT/,
  },
  {
    name: 'a rule that does not compile',
    lines: [
      ...BASE,
      'policy:',
      '  rules:',
      '    - name: a',
      '      when: chnge.kind == "Team"',
      '      outcome: warn',
      '      message: m',
    ],
    at: '6:13',
    says: /rule a: when: Unknown variable: chnge/,
  },
  {
    name: 'lease timings that do not nest',
    lines: [...BASE, 'ha:', '  mode: kubernetes', '  leaseDurationMs: 10000', '  renewDeadlineMs: 10000'],
    at: '6:20',
    says: /ha\.renewDeadlineMs: must be below ha\.leaseDurationMs/,
  },
  {
    name: 'a shard beyond the count',
    lines: [
      'listen: 127.0.0.1:0',
      'organizations:',
      '  - { id: org-a, manifests: ./a, tokenEnv: ORG_A_TOKEN }',
      'shard:',
      '  index: 2',
      '  count: 2',
    ],
    at: '5:10',
    says: /shard\.index: must be below shard\.count/,
  },
  {
    name: 'a cron expression that is not one',
    lines: [...BASE, 'schedule: "61 * * * *"'],
    at: '3:11',
    says: /schedule: "61 \* \* \* \*" is not a valid cron expression/,
  },
];

function write(lines: string[], files: Record<string, string> = {}): string {
  const dir = tempDir('config-places');
  for (const sub of ['m', 'a']) mkdirSync(join(dir, sub));
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(dir, rel), text);
  const file = join(dir, 'docops.yaml');
  writeFileSync(file, [...lines, ''].join('\n'));
  return file;
}

describe('every problem of the daemon config names its file:line:column', () => {
  it.each(CASES)('$name', async ({ lines, files, env, at, says }) => {
    const file = write(lines, files);
    const run = await runCliCollecting(['daemon', '-c', file], { DOCOPS_TOKEN: 'tok-0123456789abcdef', ...env }, []);
    expect(run.code, run.stderr).toBe(1);
    const line = run.stderr.split('\n').find((l) => says.test(l));
    expect(line, run.stderr).toBeDefined();
    expect(line).toContain(`docops.yaml:${at}: `);
  });

  it('the problems found when the daemon starts come at once, each at its place', async () => {
    const file = write([
      ...BASE,
      'tokenFile: ./missing-token',
      'kinds: { Team: { drift: propose } }',
      'proposals:',
      '  github: { repository: acme/docs }',
      'policy:',
      '  approvers: { githubTeam: acme/security }',
      RULES,
      '  approvals:',
      '    tokenFile: ./missing-approver',
      '    github: { repository: acme/docs }',
    ]);
    const run = await runCliCollecting(['daemon', '-c', file], { DOCOPS_TOKEN: 'tok-0123456789abcdef' }, []);
    expect(run.code).toBe(1);
    const places = run.stderr
      .split('\n')
      .flatMap((l) => /docops\.yaml:(\d+:\d+): ([\w.]+):/.exec(l)?.slice(1, 3).join(' ') ?? []);
    expect(places.sort()).toEqual([
      '11:16 policy.approvals.tokenFile',
      '12:5 policy.approvals.github',
      '3:12 tokenFile',
      '6:3 proposals.github',
    ]);
    const orgs = write([
      'listen: 127.0.0.1:0',
      'organizations:',
      '  - { id: org-a, manifests: ./a, tokenFile: ./missing }',
      '  - { id: org-b, manifests: ./m, tokenEnv: UNSET_TOKEN }',
    ]);
    const fleet = await runCliCollecting(['daemon', '-c', orgs], {}, []);
    expect(fleet.code).toBe(1);
    expect(fleet.stderr).toMatch(/docops\.yaml:3:\d+: organizations\[0\]\.tokenFile: cannot read/);
    expect(fleet.stderr).toMatch(/docops\.yaml:4:\d+: organizations\[1\]\.tokenEnv: the variable it names is not set/);
  });

  it('a problem of the environment names its variable', async () => {
    const file = write([...BASE, `reconcileSecret: ${SAME}`, 'policy:', RULES]);
    const same = await runCliCollecting(
      ['daemon', '-c', file],
      { DOCOPS_TOKEN: 'tok-0123456789abcdef', DOCOPS_APPROVER_TOKEN: SAME },
      [],
    );
    expect(same.code).toBe(1);
    expect(same.stderr).toMatch(/DOCOPS_APPROVER_TOKEN: the approver token must not be the reconcile secret/);
    const short = await runCliCollecting(
      ['daemon', '-c', file],
      { DOCOPS_TOKEN: 'tok-0123456789abcdef', DOCOPS_APPROVER_TOKEN: 'short' },
      [],
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/DOCOPS_APPROVER_TOKEN: the approver token must be at least 16 characters/);
  });
});
