/**
 * The stand-in logger of a command that logs only at debug (command-logger.ts): what pino would drop it drops,
 * what the level shows it keeps, and the dispatcher writes those through pino at the end — nothing is lost
 * when a command logs above what it declared.
 */
import { describe, expect, it } from 'vitest';
import { replayLines, shows, standInLogger, type KeptLine } from '../../src/cli/command-logger.js';
import { createLogger } from '../../src/log.js';
import { runCli } from './run-cli.js';

describe('the stand-in logger', () => {
  it('keeps only the lines the level shows, in order, and replays them through pino', () => {
    const kept: KeptLine[] = [];
    const log = standInLogger('info', kept);
    log.debug('hidden');
    log.trace({ a: 1 }, 'hidden too');
    log.warn({ rule: 'x' }, 'first');
    log.info('second');
    log.error(new Error('third'));
    expect(kept.map((k) => k.level)).toEqual(['warn', 'info', 'error']);
    const lines: string[] = [];
    replayLines(
      kept,
      createLogger({ level: 'info', format: 'json', stream: { write: (l: string) => void lines.push(l) } }),
    );
    const parsed = lines.map(
      (l) => JSON.parse(l) as { level: number; msg?: string; rule?: string; err?: { message: string } },
    );
    expect(parsed.map((p) => p.level)).toEqual([40, 30, 50]);
    expect(parsed[0]).toMatchObject({ rule: 'x', msg: 'first' });
    expect(parsed[2]!.err?.message).toBe('third');
  });

  it('shows: a level lets through its own lines and more severe ones', () => {
    expect(shows('info', 'debug')).toBe(false);
    expect(shows('info', 'info')).toBe(true);
    expect(shows('debug', 'debug')).toBe(true);
    expect(shows('silent', 'fatal')).toBe(false);
  });
});

describe('validate logs through pino when its debug line can show', () => {
  it('--log-level debug prints "manifests loaded"; the default level prints no log line', async () => {
    const debug = await runCli([
      'validate',
      '-m',
      'config.example/manifests',
      '--log-level',
      'debug',
      '--log-format',
      'json',
    ]);
    expect(debug.code).toBe(0);
    expect(debug.stderr).toMatch(/"msg":"manifests loaded"/);
    const quiet = await runCli(['validate', '-m', 'config.example/manifests', '--log-format', 'json']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });
});
