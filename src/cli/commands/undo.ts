/**
 * `docops undo JOURNAL`: bring back what a run deleted. Dry-run by default (the plan: restores and creates,
 * and per object what cannot come back); `--apply` runs it through the safety gate and the one write gateway;
 * `-o DIR` writes the manifest documents to commit. The journal is a positional argument, so this command
 * parses its own arguments (with the global flags) and builds the command context main.ts would.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ApplyError, BlockedError, EXIT, UsageError } from '../../model/errors.js';
import type { KindDefinition } from '../../model/kind.js';
import { createLogger, type Logger } from '../../log.js';
import { renderApplyReport, renderJson, shouldColor } from '../../render/index.js';
import { collectParts, undoRecords, type UndoResult } from '../../safety/undo.js';
import { readJournal } from '../../undo/journal-read.js';
import { undoFiles, withoutUnknownValues, writeUndoFiles } from '../../undo/documents.js';
import { planUndo } from '../../undo/plan.js';
import { renderUndoMarkdown, renderUndoText, undoJson } from '../../undo/report.js';
import { assumeRestores, checkRestores } from '../../undo/restore.js';
import {
  GLOBAL_FLAGS,
  closestFlag,
  globalOptions,
  type FlagSpecs,
  type GlobalFlagName,
  type ParsedValues,
} from '../args.js';
import type { CommandContext } from '../command.js';
import { connect } from '../connect.js';
import { commandHelp } from '../help.js';
import { stdoutIsTTY, type CliIO } from '../io.js';
import { renderPlanOutput } from '../plan-output.js';
import { SAFETY_FLAGS, guardedApply, safetySettings } from '../safety.js';
import { KINDS } from '../wiring.js';
import { FORMAT_FLAG, planFormat } from './format-flag.js';

const FLAGS = {
  apply: {
    type: 'boolean',
    description: 'Restore and recreate (through the safety gate); without it undo only shows what it would do',
  },
  output: {
    type: 'string',
    short: 'o',
    value: 'DIR',
    description: 'Also write the manifest documents, one file per kind and organization, into DIR (never over a file)',
  },
  format: FORMAT_FLAG,
  ...SAFETY_FLAGS,
} as const satisfies FlagSpecs;

export const UNDO_SPEC = {
  name: 'undo',
  usage: 'docops undo JOURNAL [--apply] [-o DIR] [--format text|markdown|json] [flags]',
  description:
    'Brings back the objects a run deleted, from the delete journal it wrote (apply prints its path). Deleted\n' +
    'spaces are restored through the API while the API keeps them (7 days: same id, pages and files kept) and\n' +
    'put back where they were; everything else is recreated from manifest documents made from the journal,\n' +
    'through the normal plan, safety gate and apply: recreated objects get new ids, objects that named each other\n' +
    '(a site and its spaces, a team and its members, nested collections) come back connected, and removed members\n' +
    'are invited again. Without --apply nothing is written: undo prints its plan and, per object, exactly what\n' +
    "cannot come back (share-link secrets, a member's acceptance of the invitation, a space past its retention,\n" +
    '...). -o DIR writes the documents: add them to your manifests, or the next run that prunes those kinds\n' +
    'deletes the objects again. With -o and no API credentials undo works offline and only writes the documents.\n' +
    'Exits 1 if a step failed or an object is blocked, 3 if the safety gate refuses.',
  flags: FLAGS,
  // Undo never prunes and always invites removed members again.
  globals: ['api-url', 'token-file', 'sandbox', 'sandbox-state', 'concurrency'] as GlobalFlagName[],
  examples: [
    'docops undo .docops/journal/journal-2030-01-02T03-04-05-678Z.jsonl',
    'docops undo JOURNAL --apply -o manifests/restored',
    'docops undo JOURNAL --format markdown > undo.md',
    'docops undo JOURNAL -o restored   # offline: only write the documents',
  ],
};

/** What main.ts lends the command: cleanup and secret registration, and the logger for its error handler. */
export interface UndoHooks {
  onCleanup(fn: () => Promise<void> | void): void;
  addSecret(value: string): void;
  setLogger(logger: Logger): void;
}

function parse(argv: readonly string[]): { values: ParsedValues; journal: string } {
  const flags: FlagSpecs = { ...FLAGS, ...GLOBAL_FLAGS };
  const options = Object.fromEntries(
    Object.entries(flags).map(([name, f]) => [
      name,
      { type: f.type, ...(f.short ? { short: f.short } : {}), ...(f.multiple ? { multiple: true } : {}) },
    ]),
  );
  const help = 'Run `docops undo --help` for the flags.';
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const flag = /'([^']+)'/.exec((err as Error).message)?.[1] ?? '';
      const near = closestFlag(flag, Object.keys(flags));
      throw new UsageError(
        `unknown flag ${flag} for \`docops undo\`.${near ? ` Did you mean --${near}?` : ''} ${help}`,
      );
    }
    throw new UsageError(`${(err as Error).message}. ${help}`);
  }
  const values = parsed.values as ParsedValues;
  if (values.help === true) return { values, journal: '' };
  if (parsed.positionals.length !== 1)
    throw new UsageError(`expected exactly one journal file (got ${parsed.positionals.length}). ${help}`);
  return { values, journal: parsed.positionals[0]! };
}

export async function runUndo(
  argv: readonly string[],
  io: CliIO,
  hooks: UndoHooks,
  kinds: readonly KindDefinition[] = KINDS,
): Promise<number> {
  const { values, journal } = parse(argv);
  if (values.help === true) {
    io.stdout.write(commandHelp(UNDO_SPEC));
    return EXIT.ok;
  }
  const global = globalOptions(values, io.env);
  const logger = createLogger({
    level: global.logLevel,
    ...(global.logFormat ? { format: global.logFormat } : {}),
    stream: io.stderr,
    env: io.env,
  });
  hooks.setLogger(logger);
  const ctx: CommandContext = { io, logger, global, values, onCleanup: hooks.onCleanup, addSecret: hooks.addSecret };
  return undo(ctx, journal, kinds);
}

const hasCredentials = (ctx: CommandContext): boolean =>
  ctx.global.sandbox || ctx.global.tokenFile !== undefined || Boolean(ctx.io.env.DOCOPS_TOKEN);

async function undo(ctx: CommandContext, journal: string, kinds: readonly KindDefinition[]): Promise<number> {
  const format = planFormat(ctx);
  const out = typeof ctx.values.output === 'string' && ctx.values.output !== '' ? ctx.values.output : undefined;
  const apply = ctx.values.apply === true;
  if (ctx.global.prune.length > 0)
    throw new UsageError('undo never deletes: drop --prune (its plan brings objects back, with prune off)');
  const name = path.basename(journal);
  const header = `# docops undo of ${name}: brings back deleted objects (recreated ones get new ids)\n`;
  const input = collectParts(await readJournal(journal), kinds);

  if (!hasCredentials(ctx)) {
    if (apply || out === undefined) {
      throw new UsageError(
        'undo reads the API to show or apply its plan: set DOCOPS_TOKEN, pass --token-file FILE or --sandbox; or pass -o DIR alone to only write the documents (offline)',
      );
    }
    const result = withoutUnknownValues(undoRecords(input, assumeRestores(input)), kinds);
    for (const file of await writeUndoFiles(out, undoFiles(result.documents, kinds), header))
      ctx.io.stdout.write(`wrote ${file}\n`);
    writeReport(ctx, format, name, result, { offline: true });
    return EXIT.ok;
  }

  const settings = apply ? await safetySettings(ctx) : undefined;
  const client = await connect(ctx);
  const checks = await checkRestores(client, input, new Date());
  const result = withoutUnknownValues(undoRecords(input, checks.fates, checks.losses), kinds);
  const files = undoFiles(result.documents, kinds);
  const planned = await planUndo(client, kinds, files, checks.restores);
  const { plan } = planned;
  const color = shouldColor({ isTTY: stdoutIsTTY(ctx.io) }, ctx.io.env);
  const written = out === undefined ? [] : await writeUndoFiles(out, files, header);

  let applied: Awaited<ReturnType<typeof guardedApply>> | undefined;
  if (apply && settings && plan.steps.length > 0)
    applied = await guardedApply(ctx, settings, { client, kinds, plan, live: planned.live, desired: planned.desired });
  const report = applied
    ? { applied: applied.report.applied, failed: applied.report.failed, skipped: applied.report.skipped }
    : undefined;

  if (format === 'json') {
    const doc = {
      journal,
      objects: undoJson(result),
      plan: JSON.parse(renderJson(plan)) as unknown,
      ...(report ? { result: report } : {}),
      ...(written.length > 0 ? { files: written } : {}),
    };
    ctx.io.stdout.write(JSON.stringify(doc, null, 2) + '\n');
  } else {
    for (const file of written) ctx.io.stdout.write(`wrote ${file}\n`);
    writeReport(ctx, format, name, result, {});
    ctx.io.stdout.write('\n' + renderPlanOutput(plan, format, { color }));
    if (report) ctx.io.stdout.write('\n' + renderApplyReport(report, format, { color }));
    ctx.io.stdout.write('\n' + nextStep(apply, out !== undefined, journal) + '\n');
  }
  if (report && (report.failed.length > 0 || plan.blocked.length > 0))
    throw new ApplyError(report.failed, report.skipped, plan.blocked);
  if (plan.blocked.length > 0) throw new BlockedError(plan.blocked);
  return EXIT.ok;
}

function writeReport(
  ctx: CommandContext,
  format: string,
  journal: string,
  result: UndoResult,
  options: { offline?: boolean },
): void {
  if (format === 'json') {
    if (options.offline) ctx.io.stdout.write(JSON.stringify({ journal, objects: undoJson(result) }, null, 2) + '\n');
    return;
  }
  ctx.io.stdout.write(
    format === 'markdown' ? renderUndoMarkdown(journal, result, options) : renderUndoText(journal, result, options),
  );
}

function nextStep(applied: boolean, wrote: boolean, journal: string): string {
  if (!applied)
    return `Dry run: nothing was changed. \`docops undo ${journal} --apply\` restores and recreates${wrote ? '' : '; -o DIR writes the documents'}.`;
  return wrote
    ? 'Add the written documents to your manifests (merging per kind where needed), or the next run that prunes these kinds deletes the objects again.'
    : 'Add the objects to your manifests (`-o DIR` writes their documents), or the next run that prunes these kinds deletes them again.';
}
