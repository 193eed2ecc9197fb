/**
 * Space references of a Site spec → space ids: a Space manifest title (through ctx.resolve, which also knows
 * the live titles of a managed Space kind; a ref when the space is created in this plan), else the live
 * spaces list by title, then by id. Two live spaces with the title is a ConflictError: docops never guesses.
 */
import { ConflictError, type SourcePos } from '../core/errors.js';
import type { DiffContext } from '../core/kind.js';
import { isRef } from '../core/plan.js';
import { refSteps } from './collection.js';
import type { LiveSpaceRef } from './site-model.js';

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
  return (name, pos) => {
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
  };
}
