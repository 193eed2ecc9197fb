import { describe, expect, it } from 'vitest';
import { reportError } from '../../src/cli/report-error.js';
import {
  ApiError,
  ApplyError,
  ConflictError,
  SafetyError,
  StalePlanError,
  UsageError,
  ValidationError,
} from '../../src/model/errors.js';
import { createLogger } from '../../src/log.js';

function capture() {
  let stderr = '';
  let logs = '';
  const io = { stdout: { write: () => true }, stderr: { write: (c: string) => void (stderr += c) }, env: {} };
  const logger = createLogger({
    level: 'debug',
    format: 'json',
    stream: { write: (c: string) => void (logs += c) },
    env: {},
  });
  return { io, logger, stderr: () => stderr, logs: () => logs };
}

describe('reportError (the top-level handler)', () => {
  it.each([
    [new UsageError('bad flag'), 1, 'bad flag'],
    [new ApiError('GET', '/orgs', 503, 'unavailable'), 1, 'GET /orgs failed with 503: unavailable'],
    [new ConflictError('two teams named x'), 1, 'two teams named x'],
    [new StalePlanError('plan is stale'), 1, 'plan is stale'],
    [new ApplyError([{ stepId: 's1', message: 'boom' }], ['s2']), 1, '- s1: boom'],
    [new SafetyError([{ rule: 'max-deletes', message: 'too many deletes' }]), 3, '[max-deletes] too many deletes'],
  ])('%s → exit %i with its message', (err, code, text) => {
    const c = capture();
    expect(reportError(err, c.io, { logger: c.logger })).toBe(code);
    expect(c.stderr()).toContain(text);
    expect(c.logs()).not.toContain('"stack"');
  });

  it('prints every issue of a ValidationError as file:line:column: message', () => {
    const c = capture();
    const err = new ValidationError([
      { file: 'm/a.yaml', line: 3, column: 7, message: 'unknown field "titel"' },
      { file: 'm/b.yaml', line: 10, column: 1, message: 'duplicate team' },
    ]);
    expect(reportError(err, c.io, {})).toBe(1);
    expect(c.stderr().split('\n')).toEqual([
      'Error: 2 validation errors:',
      'm/a.yaml:3:7: unknown field "titel"',
      'm/b.yaml:10:1: duplicate team',
      '',
    ]);
  });

  it('anything else exits 1 with its message; the stack goes to the debug log only', () => {
    const c = capture();
    expect(reportError(new TypeError('x is undefined'), c.io, { logger: c.logger })).toBe(1);
    expect(c.stderr()).toBe('Error: x is undefined\n');
    expect(c.logs()).toContain('TypeError: x is undefined\\n    at ');
    expect(reportError('thrown string', c.io, {})).toBe(1);
    expect(c.stderr()).toContain('Error: thrown string');
  });

  it('scrubs known secrets from the message', () => {
    const c = capture();
    reportError(new Error('request to https://h/?token=tok-123456 failed'), c.io, { secrets: ['tok-123456'] });
    expect(c.stderr()).not.toContain('tok-123456');
  });
});
