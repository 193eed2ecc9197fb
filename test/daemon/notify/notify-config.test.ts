/**
 * `notify:` in docops.yaml: targets parsed (URL from `${VAR}`, signing key from the variable `secretEnv` names),
 * every problem reported at once at its file:line:column with the rest of the config's, and the URLs and keys
 * registered as secrets as soon as the daemon exists.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError, formatIssue } from '../../../src/model/errors.js';
import { loadConfig } from '../../../src/config/load.js';
import { Notifier } from '../../../src/daemon/notify/index.js';
import { createLogger } from '../../../src/log.js';
import { redactText } from '../../../src/secrets.js';

function configFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'docops-notify-'));
  writeFileSync(join(dir, 'docops.yaml'), text);
  return join(dir, 'docops.yaml');
}

const SLACK = 'https://hooks.slack.test/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX';

describe('notify config', () => {
  it('parses targets; events default to all; the status page is on unless turned off', async () => {
    const file = configFile(
      [
        'manifests: ./m',
        'statusPage: false',
        'notify:',
        '  - { type: slack, url: "${SLACK_URL}", events: [drift, recovered] }',
        '  - { name: ops, type: webhook, url: https://ops.test/hook, secretEnv: HOOK_KEY }',
        '',
      ].join('\n'),
    );
    const config = await loadConfig(file, { env: { SLACK_URL: SLACK, HOOK_KEY: 'k'.repeat(20) } });
    expect(config.statusPage).toBe(false);
    expect(config.notify).toEqual([
      { name: 'notify[0]', type: 'slack', url: SLACK, events: ['drift', 'recovered'] },
      {
        name: 'ops',
        type: 'webhook',
        url: 'https://ops.test/hook',
        secret: 'k'.repeat(20),
        events: ['drift', 'apply_failed', 'refused', 'awaiting_approval', 'recovered', 'manifests_invalid'],
      },
    ]);
    expect((await loadConfig(configFile('manifests: ./m\n'), { env: {} })).statusPage).toBe(true);
    new Notifier(config.notify!, { logger: createLogger({ level: 'silent' }) });
    expect(redactText(`sent to ${SLACK}`)).toBe('sent to [redacted]');
  });

  it('reports every problem with file:line:column', async () => {
    const file = configFile(
      [
        'manifests: ./m',
        'notify:',
        '  - { type: slack, url: "https://x.test/a", secretEnv: HOOK_KEY }',
        '  - { type: webhook, url: "https://x.test/b", secretEnv: UNSET_KEY }',
        '  - { type: webhook, url: "https://[bad/c" }',
        '',
      ].join('\n'),
    );
    const error = await loadConfig(file, { env: { HOOK_KEY: 'k'.repeat(20) } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const lines = (error as ValidationError).issues.map(formatIssue);
    expect(lines).toEqual([
      expect.stringMatching(/docops\.yaml:3:\d+: notify\[0\]\.secretEnv: only a webhook target signs its body/),
      expect.stringMatching(
        /docops\.yaml:4:\d+: notify\[1\]\.secretEnv: the variable it names must hold the signing secret/,
      ),
      expect.stringMatching(/docops\.yaml:5:\d+: notify\[2\]\.url: not an http\(s\) URL/),
    ]);
    const schema = await loadConfig(
      configFile('manifests: ./m\nnotify:\n  - { type: email, url: "https://x.test", events: [] }\n'),
      { env: {} },
    ).catch((e: unknown) => e);
    expect((schema as ValidationError).issues.map((i) => i.line)).toEqual([3, 3]);
  });
});
