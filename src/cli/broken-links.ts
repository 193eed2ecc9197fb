/**
 * `docops plan --fail-on broken-links` and `--broken-links-out`: after the plan, the broken links the API reports
 * in each managed space (src/health/broken-links.ts: one list request per space), printed after the plan (on
 * stderr for `--format json`, whose stdout is the plan alone). With `--fail-on broken-links` the run fails (exit 1)
 * when a space has a broken link that is new: not in the baseline `--broken-links-baseline FILE` (the links a
 * run on the main branch wrote with `--broken-links-out FILE`), or any at all without a baseline. Without these
 * flags, plan reads no links.
 */
import { readFile } from 'node:fs/promises';
import { DocopsError, UsageError } from '../model/errors.js';
import {
  baselineOf,
  describeLink,
  managedSpaces,
  newBrokenLinks,
  parseBaseline,
  readBrokenLinks,
  type Baseline,
  type BrokenLink,
  type SpaceLinks,
} from '../health/broken-links.js';
import type { FlagSpec } from './args.js';
import type { CommandContext } from './command.js';
import type { PlannedRun } from './plan-run.js';

export const FAIL_ON_CHECKS = ['broken-links'] as const;

export const BROKEN_LINKS_FLAGS: Record<string, FlagSpec> = {
  'fail-on': {
    type: 'string',
    value: 'CHECK',
    description:
      'Fail (exit 1) when a check of the docs finds a problem: broken-links — a managed space has a broken link not in the baseline',
  },
  'broken-links-baseline': {
    type: 'string',
    value: 'FILE',
    description: 'The broken links known already (written by --broken-links-out); only others count as new',
  },
  'broken-links-out': {
    type: 'string',
    value: 'FILE',
    description: 'Write the broken links of the managed spaces to FILE, as a baseline for --fail-on broken-links',
  },
};

/** The most new links listed per space (the count says how many there are). */
const SHOWN = 20;

function failOn(ctx: CommandContext): boolean {
  const v = ctx.values['fail-on'];
  if (v === undefined) return false;
  if (typeof v !== 'string' || !(FAIL_ON_CHECKS as readonly string[]).includes(v))
    throw new UsageError(`--fail-on must be one of ${FAIL_ON_CHECKS.join(', ')}, got "${String(v)}"`);
  return true;
}

async function baseline(file: unknown): Promise<Baseline | undefined> {
  if (typeof file !== 'string') return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `--broken-links-baseline: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const parsed = parseBaseline(text);
  if (typeof parsed === 'string') throw new UsageError(`--broken-links-baseline: ${file} is ${parsed}`);
  return parsed;
}

function report(
  found: readonly SpaceLinks[],
  fresh: ReadonlyMap<string, BrokenLink[]>,
  markdown: boolean,
  compared: boolean,
): string {
  const total = found.reduce((n, s) => n + s.broken, 0);
  const head = `Broken links in ${found.length} managed space(s): ${total}${compared ? `, ${[...fresh.values()].reduce((n, l) => n + l.length, 0)} new` : ''}`;
  const lines = [markdown ? `### ${head}` : head];
  for (const s of found) {
    if (s.broken === 0) continue;
    const mine = fresh.get(s.id) ?? [];
    const cr = s.inChangeRequests > 0 ? `, ${s.inChangeRequests} in change requests` : '';
    lines.push(
      `${markdown ? '- **' : '  '}${s.org}/${s.title}${markdown ? '**' : ''}: ${s.broken} broken${cr}${compared ? `, ${mine.length} new` : ''}`,
    );
    for (const l of mine.slice(0, SHOWN)) lines.push(`${markdown ? '  - ' : '    - '}new: ${describeLink(l)}`);
    if (mine.length > SHOWN) lines.push(`${markdown ? '  - ' : '    - '}… and ${mine.length - SHOWN} more`);
  }
  return lines.join('\n') + '\n';
}

/** The flags' values, checked before anything is read (a typo is a usage error, not a failed check after the plan). */
export function checkBrokenLinksFlags(ctx: CommandContext): void {
  if (!failOn(ctx) && ctx.values['broken-links-baseline'] !== undefined)
    throw new UsageError('--broken-links-baseline needs --fail-on broken-links');
}

/** After the plan is printed: read, print, write the baseline, and fail on new broken links when asked. */
export async function brokenLinksCheck(ctx: CommandContext, run: PlannedRun, format: string): Promise<void> {
  const fail = failOn(ctx);
  const out = ctx.values['broken-links-out'];
  if (!fail && typeof out !== 'string') return;
  const known = await baseline(ctx.values['broken-links-baseline']);
  const found = await readBrokenLinks(run.client, managedSpaces(run.desired, run.live));
  const fresh = new Map(newBrokenLinks(found, known).map((x) => [x.space.id, x.links]));
  const text = report(found, fresh, format === 'markdown', fail);
  (format === 'json' ? ctx.io.stderr : ctx.io.stdout).write(`\n${text}`);
  if (typeof out === 'string') {
    const { writeNamedFile } = await import('../write-inside.js'); // only with --broken-links-out
    await writeNamedFile(out, JSON.stringify(baselineOf(found), null, 2) + '\n');
  }
  if (fail && fresh.size > 0) {
    const n = [...fresh.values()].reduce((a, l) => a + l.length, 0);
    const where = [...fresh.keys()].map((id) => found.find((s) => s.id === id)!).map((s) => `${s.org}/${s.title}`);
    throw new DocopsError(
      `--fail-on broken-links: ${n} new broken link(s) in ${where.join(', ')}${known ? ' (not in the baseline)' : ' (no baseline given: every broken link counts)'}`,
    );
  }
}
