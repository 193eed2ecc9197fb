/**
 * Space references of a Site spec → space ids: a Space manifest title (through ctx.resolve, which also knows
 * the live titles of a managed Space kind; a ref when the space is created in this plan), else the live
 * spaces list by title, then by id. Two live spaces with the title is a ConflictError: docops never guesses.
 *
 * A reference that resolves to nothing (a typo, a deleted space, a Space manifest that is itself blocked) blocks
 * the whole site before it registers or plans anything: a site is never applied with some of its spaces left out.
 */
import { ConflictError, type SourcePos } from '../../model/errors.js';
import type { DesiredEntry, DiffContext, DiffResult } from '../../model/kind.js';
import { isRef } from '../../model/refs.js';
import { blockEntry, refSteps } from '../common.js';
import { allSpaceRefs } from './desired.js';
import type { LiveSpaceRef, SiteSpec } from './model.js';

export interface SpaceTarget {
  /** Space id, or a ref to the step creating it. */
  id: string;
  /** Title the server slugs paths from (the live title when known). */
  title: string;
  /** Steps the id depends on. */
  deps: string[];
}

export type SpaceResolver = (name: string, pos: SourcePos) => SpaceTarget | undefined;

export function spaceResolver(ctx: DiffContext, org: string, spaces: readonly LiveSpaceRef[]): SpaceResolver {
  const byId = new Map(spaces.map((s) => [s.id, s]));
  // Sites name the same spaces again and again (and each reference is resolved by the block check and by
  // the structure diff): resolve each name once. The Space kind registered its ids before the Site diff.
  const memo = new Map<string, SpaceTarget | undefined>();
  return (name, pos) => {
    if (memo.has(name)) return memo.get(name);
    const t = resolve(name, pos);
    memo.set(name, t);
    return t;
  };
  function resolve(name: string, pos: SourcePos): SpaceTarget | undefined {
    const known = ctx.resolve('Space', org, name);
    if (known !== undefined) {
      return { id: known, title: isRef(known) ? name : (byId.get(known)?.title ?? name), deps: refSteps(known) };
    }
    const titled = spaces.filter((s) => s.title === name);
    if (titled.length > 1) {
      throw new ConflictError(
        `${pos.file}:${pos.line}:${pos.column}: space "${name}" in organization ${org} matches ${titled.length} live spaces ` +
          `(${titled.map((s) => s.id).join(', ')}); name the one you mean by id`,
      );
    }
    const hit = titled[0] ?? byId.get(name);
    return hit ? { id: hit.id, title: hit.title, deps: [] } : undefined;
  }
}

const at = (p: SourcePos): string => `${p.file}:${p.line}:${p.column}`;

/**
 * Block a site whose spec names a space (in a section, at the root or as its default site space) that
 * resolves to nothing. True when blocked: the caller then plans and registers nothing for the site.
 */
export function blockUnresolvedSpaces(
  result: DiffResult,
  entry: DesiredEntry<SiteSpec>,
  resolve: SpaceResolver,
): boolean {
  const missing: { space: string; pos: SourcePos }[] = [];
  for (const r of allSpaceRefs(entry.spec)) {
    const pos = entry.doc.pos(r.at);
    if (!resolve(r.space, pos)) missing.push({ space: r.space, pos });
  }
  const [first, ...more] = missing;
  if (!first) return false;
  const others = more.length > 0 ? `; also ${more.map((m) => `space "${m.space}" (${at(m.pos)})`).join(', ')}` : '';
  blockEntry(
    result,
    entry,
    first.pos,
    `space "${first.space}" is neither a Space manifest nor a live space (by title or id)${others}; nothing of the site is planned until it names an existing space`,
  );
  return true;
}
