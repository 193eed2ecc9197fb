/**
 * The site-space part of a site's reorder step, as one sequence the server accepts request by request. It
 * simulates the navigation from the predicted layout:
 * - per container the fewest moves (moves.ts: a longest run already in order stays, the rest is placed
 *   next to a placed neighbour); a site space coming from another section moves next to one of its new section;
 * - a site space only leaves its section when it is not that section's default: a section whose staying site
 *   spaces all come from elsewhere makes the first one that can arrive its default right away (lateDefaults),
 *   after which its old default may go; containers are revisited until every item is placed;
 * - a container none of whose desired site spaces is there yet places the first arrival next to any site space
 *   it holds;
 * - last, the paths the earlier steps could not set (a site space held the path, or a move made the server pick
 *   `path-2`): each set when free; a site space the plan deletes later, or whose path is not written, steps
 *   aside; a cycle of swapped paths parks one on a free path first. A path held by a site space the manifest
 *   does not list and that stays (prune off) cannot be reached: that is the error the site is blocked with.
 */
import type { Layout } from './layout.js';
import { keptItems, type Move } from './moves.js';
import { parkingPath, uniquePath, type PathPlan } from './paths.js';

export type Action =
  /** `within`: the site space stays in its container (a sort among siblings), else it arrives from another section. */
  | { type: 'move'; container: string; move: Move; within: boolean }
  | { type: 'default'; container: string; item: string }
  | { type: 'path'; container: string; item: string; from: string | undefined; path: string };

export interface SequenceInput {
  /** The predicted navigation when the reorder step starts. */
  layout: Layout;
  /** Site-space containers (sections, or the root) → their desired site spaces, in order. */
  desired: ReadonlyMap<string, readonly string[]>;
  /** Section container → its default site space when the step starts. */
  defaults: ReadonlyMap<string, string>;
  /** Section containers that make the first site space to move in their default (all theirs arrive from elsewhere). */
  lateDefaults: ReadonlySet<string>;
  paths: ReadonlyMap<string, PathPlan>;
  /** Site spaces this plan deletes after the reorder step. */
  doomed: ReadonlySet<string>;
  /** Site spaces in a section the plan cannot know (root ones no section lists when several sections are created). */
  floating: ReadonlySet<string>;
  /** A name for messages. */
  name: (id: string) => string;
}

export type Sequence = { actions: Action[] } | { error: string; at?: PathPlan['at'] };

export function sequenceSiteSpaces(input: SequenceInput): Sequence {
  const sim = new Simulation(input);
  const error = sim.placeAll() ?? sim.fixPaths();
  return error ?? { actions: sim.actions };
}

class Simulation {
  readonly actions: Action[] = [];
  private readonly where = new Map<string, string>();
  private readonly members = new Map<string, string[]>();
  private readonly defaults: Map<string, string>;
  private readonly now = new Map<string, string | undefined>();
  /** For a site space whose path is unknown: the paths it may have. */
  private readonly maybe = new Map<string, string[]>();
  private readonly placed = new Map<string, Set<string>>();
  private readonly lateDefaults: Set<string>;

  constructor(private readonly input: SequenceInput) {
    this.defaults = new Map(input.defaults);
    this.lateDefaults = new Set(input.lateDefaults);
    const containers = new Set([...input.desired.keys()]);
    for (const list of input.desired.values())
      for (const item of list) containers.add(input.layout.containerOf(item) ?? '');
    for (const c of containers) {
      const items = input.layout.flat(c);
      this.members.set(c, items);
      for (const item of items) this.where.set(item, c);
    }
    for (const [item, p] of input.paths) {
      this.now.set(item, p.now);
      if (p.maybe) this.maybe.set(item, p.maybe);
    }
    for (const [c, list] of input.desired) this.placed.set(c, keptItems(input.layout.slots(c), list));
  }

  private in(c: string): string[] {
    let list = this.members.get(c);
    if (!list) this.members.set(c, (list = []));
    return list;
  }

  /** Whether the server lets `item` be moved to (or within) `to` now. */
  private canMove(item: string, to: string): boolean {
    const from = this.where.get(item);
    return from !== undefined && (from === to || this.defaults.get(from) !== item);
  }

  private move(item: string, position: Move['position'], anchor: string, c: string): void {
    const from = this.where.get(item)!;
    this.actions.push({ type: 'move', container: c, move: { item, position, anchor }, within: from === c });
    this.placed.get(c)!.add(item);
    const list = this.in(c);
    if (from === c) {
      list.splice(list.indexOf(item), 1);
    } else {
      const old = this.in(from);
      old.splice(old.indexOf(item), 1);
      this.where.set(item, c);
      // The server keeps the path of a site space that changes section unless the new section has it already.
      const p = this.now.get(item);
      if (p !== undefined) {
        // Next to a site space whose path is unknown but may be this one, its own becomes unknown too.
        const taken = this.pathsIn(c);
        const unsure = this.in(c).some(
          (x) => x !== item && this.now.get(x) === undefined && (this.maybe.get(x) ?? []).includes(p),
        );
        this.now.set(item, unsure ? undefined : uniquePath(p, taken));
        if (unsure) this.maybe.set(item, [p, uniquePath(p, new Set([...taken, p]))]);
      }
      if (this.lateDefaults.delete(c)) {
        this.actions.push({ type: 'default', container: c, item });
        this.defaults.set(c, item);
      }
    }
    list.splice(list.indexOf(anchor) + (position === 'after' ? 1 : 0), 0, item);
  }

  /** Place every desired item; undefined when done, else the error. */
  placeAll(): Sequence | undefined {
    const { desired } = this.input;
    for (let progress = true; progress;) {
      progress = false;
      for (const [c, list] of desired) progress = this.placeIn(c, list) || progress;
    }
    const missing = [...desired].flatMap(([c, list]) => list.filter((item) => !this.placed.get(c)!.has(item)));
    if (missing.length === 0) return undefined;
    return {
      error: `cannot bring ${missing.map((x) => this.input.name(x)).join(', ')} into place: each move waits on a section default that cannot change first`,
    };
  }

  /** One container's placements (as far as possible now); whether anything moved. */
  private placeIn(c: string, list: readonly string[]): boolean {
    const placed = this.placed.get(c)!;
    let any = false;
    for (let progress = true; progress && placed.size < list.length;) {
      progress = false;
      if (placed.size === 0) {
        const item = list.find((x) => this.canMove(x, c));
        const anchor = this.in(c)
          .filter((x) => x !== item)
          .at(-1);
        if (item === undefined || anchor === undefined) return any;
        this.move(item, 'after', anchor, c);
        progress = any = true;
        continue;
      }
      list.forEach((item, i) => {
        const anchor = list[i - 1];
        if (placed.has(item) || anchor === undefined || !placed.has(anchor) || !this.canMove(item, c)) return;
        this.move(item, 'after', anchor, c);
        progress = any = true;
      });
      for (let i = list.length - 1; i >= 0; i--) {
        const item = list[i]!;
        const anchor = list[i + 1];
        if (placed.has(item) || anchor === undefined || !placed.has(anchor) || !this.canMove(item, c)) continue;
        this.move(item, 'before', anchor, c);
        progress = any = true;
      }
    }
    return any;
  }

  private pathsIn(c: string, except?: string): Set<string> {
    return new Set(
      this.in(c).flatMap((x) => (x === except ? [] : [this.now.get(x)].filter((p): p is string => p !== undefined))),
    );
  }

  private setPath(c: string, item: string, path: string): void {
    this.actions.push({ type: 'path', container: c, item, from: this.now.get(item), path });
    this.now.set(item, path);
  }

  /** The paths still to set, container by container; undefined when done, else the error. */
  fixPaths(): Sequence | undefined {
    for (const [c, list] of this.input.desired) {
      const want = new Map(
        list.flatMap((x) => {
          const w = this.input.paths.get(x)?.want;
          return w === undefined ? [] : [[x, w] as const];
        }),
      );
      // A kept (soft) path another site space is written with goes to a variant, as the server would do.
      const written = new Set(
        list.flatMap((x) => (want.has(x) && !this.input.paths.get(x)!.soft ? [want.get(x)!] : [])),
      );
      for (const x of list) {
        if (!this.input.paths.get(x)?.soft || !written.has(want.get(x)!)) continue;
        want.set(x, uniquePath(want.get(x)!, new Set([...this.pathsIn(c), ...want.values()])));
      }
      this.parkUnknown(c, list, want);
      const needs = list.filter((x) => want.has(x) && this.now.get(x) !== want.get(x));
      // Who holds a path in this container: its site spaces, and any that may float into it; one whose path is
      // unknown holds every path it may have.
      const holds = (x: string, path: string): boolean =>
        this.now.get(x) === path || (this.now.get(x) === undefined && (this.maybe.get(x) ?? []).includes(path));
      const holder = (path: string, ...not: (string | undefined)[]): string | undefined =>
        [...this.in(c), ...this.input.floating].find((x) => !not.includes(x) && holds(x, path));
      const taken = (): Set<string> =>
        new Set([
          ...this.pathsIn(c),
          ...[...this.input.floating].flatMap((x) => [this.now.get(x) ?? '', ...(this.maybe.get(x) ?? [])]),
          ...want.values(),
        ]);
      while (needs.length > 0) {
        const free = needs.find((x) => holder(want.get(x)!, x) === undefined);
        if (free !== undefined) {
          this.setPath(c, free, want.get(free)!);
          needs.splice(needs.indexOf(free), 1);
          continue;
        }
        const error = this.clearHolder(c, needs, want, holder, taken);
        if (error) return error;
      }
      // Paths a later step (a root site space's replace) gives: kept free here.
      for (const x of list) {
        const plan = this.input.paths.get(x);
        if (plan?.reserve === undefined) continue;
        const h = holder(plan.reserve, x, plan.replaced);
        if (h === undefined) continue;
        const error = this.stepAside(c, h, x, plan.reserve, want, taken);
        if (error) return error;
      }
    }
    return undefined;
  }

  /**
   * Site spaces whose path is unknown (created concurrently with a shared slug, or root ones landing in a section
   * the plan cannot know) and that may hold a wanted path take a known free one first, so no holder is unknown.
   */
  private parkUnknown(c: string, list: readonly string[], want: ReadonlyMap<string, string>): void {
    const wanted = new Set(want.values());
    const unknown = list.filter((x) => this.now.get(x) === undefined && !want.has(x));
    const maybe = new Set(unknown.flatMap((x) => this.maybe.get(x) ?? []));
    for (const x of unknown) {
      const candidates = this.maybe.get(x) ?? [];
      if (!candidates.some((p) => wanted.has(p))) continue;
      // A `-swap` path, never one the server derives (`-2`, `-3` …), which another unknown one might hold.
      const floating = [...this.input.floating].flatMap((f) => [this.now.get(f) ?? '', ...(this.maybe.get(f) ?? [])]);
      this.setPath(c, x, parkingPath(candidates[0]!, new Set([...this.pathsIn(c), ...floating, ...wanted, ...maybe])));
    }
  }

  /**
   * `h` holds the path `path` that `x` needs: a site space the plan deletes later, or whose path is not written,
   * moves to a parking path; one that stays as it is cannot be moved: the error.
   */
  private stepAside(
    c: string,
    h: string,
    x: string,
    path: string,
    want: ReadonlyMap<string, string>,
    taken: () => Set<string>,
  ): Sequence | undefined {
    const desired = this.input.desired.get(c)!.includes(h);
    if (this.input.doomed.has(h) || (desired && !want.has(h))) {
      this.setPath(c, h, parkingPath(this.now.get(h) ?? path, taken()));
      return undefined;
    }
    const plan = this.input.paths.get(x)!;
    const why = want.has(h)
      ? 'which is written with that path too'
      : this.input.floating.has(h)
        ? 'a root site space no section lists, which stays in whichever new section the server gives the root site spaces to (prune is off)'
        : 'which the manifest does not list there and which stays (prune is off)';
    return {
      error: `path "${path}" of ${this.input.name(x)} is used by ${this.input.name(h)}, ${why}: write another path, list that site space, or turn prune on`,
      ...(plan.at ? { at: plan.at } : {}),
    };
  }

  /** Every wanted path is held: move a holder aside (or take a variant of a soft want), or park one of a cycle. */
  private clearHolder(
    c: string,
    needs: string[],
    want: Map<string, string>,
    holder: (path: string, ...not: string[]) => string | undefined,
    taken: () => Set<string>,
  ): Sequence | undefined {
    for (const x of needs) {
      const h = holder(want.get(x)!, x)!;
      if (needs.includes(h)) continue;
      if (this.input.paths.get(x)!.soft && !this.input.doomed.has(h)) {
        want.set(x, uniquePath(want.get(x)!, taken()));
        return undefined;
      }
      return this.stepAside(c, h, x, want.get(x)!, want, taken);
    }
    // Only site spaces that change paths hold the wanted ones: a cycle. Park the first on a free path.
    const first = needs[0]!;
    this.setPath(c, first, parkingPath(this.now.get(first) ?? want.get(first)!, taken()));
    return undefined;
  }
}
