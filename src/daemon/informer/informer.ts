/**
 * The informer (docs/daemon.md, "The informer"): list once, then follow the audit log. Per organization it keeps
 * the reads of its last full read (src/engine/read-cache.ts) and a cursor in its audit events (src/audit/feed.ts).
 * A run's live state comes from here:
 * - **informer**: poll the events since the cursor, mark stale what each names (its kind's `informer.stale`,
 *   changes.ts), and run every kind's fetch over the kept reads: only what went stale is read again;
 * - **full read** (reads kept from then on): at the first run, on demand (`POST /reconcile?full=1`), and when the
 *   events cannot vouch for the state — the cursor expired, an answer out of order, too many events, an action
 *   no kind knows. The periodic resync is a full read too, but in the background at low priority (`background`
 *   client): runs go on with the kept reads meanwhile, and what they marked stale is marked again on the new reads
 *   when they replace the old;
 * - **fallback** where the audit log is unavailable (401/403/404): a full read every run, as without an informer
 *   (a run scoped to a file change reads only its scopes), tried again at each full run.
 * docops's own writes are read again right after the apply (`wrote`), and their events skipped (own-events.ts).
 */
import type { ApiClient } from '../../model/api-client.js';
import { poll, type FeedOptions } from '../../audit/feed.js';
import type { InformerView, KindDefinition, StaleRead } from '../../model/kind.js';
import type { ApplyReport } from '../../model/apply-report.js';
import type { Plan } from '../../model/plan.js';
import type { PlanOptions } from '../../engine/reconcile.js';
import type { DesiredState, LiveState } from '../../model/state.js';
import { managedScopes, type ScopeSet } from '../../engine/scope.js';
import type { Logger } from '../../log.js';
import { ChangeMap, changeOfWrite, ownWrites } from './changes.js';
import { allOwn, partOf } from './own-events.js';
import { forgetReads, newOrgState, orgStatus, type OrgRead, type OrgState, type OrgStatus } from './org-state.js';
import { OrgReader } from './org-reads.js';
import { pathTarget } from '../../audit/targets.js';

export { type OrgRead, type OrgStatus } from './org-state.js';

export interface InformerConfig {
  /** Events read again behind the cursor (late events); up to maxOverlapMs once events were seen later than that. */
  overlapMs: number;
  maxOverlapMs?: number;
  /** Pages of events one poll may read before it calls a full read cheaper. */
  maxPages: number;
  /** A background full read this often (0: never). */
  resyncMs: number;
}

export interface InformerDeps {
  kinds: readonly KindDefinition[];
  client: ApiClient;
  /** For background resyncs: yields to every other request (default: `client`). */
  background?: ApiClient;
  config: InformerConfig;
  now?: () => number;
  /** The token's user id: events of this actor may be docops's own writes. */
  selfId?: () => Promise<string | undefined>;
  logger?: Logger;
  /** Told of every organization read. */
  onRead?: (read: OrgRead) => void;
}

const orgOfKey = (key: string): string => key.slice(key.indexOf('\u0000') + 1);

export class Informer {
  private readonly orgs = new Map<string, OrgState>();
  /** What the last read was for: a resync started between runs reads it. */
  private last: { desired: DesiredState; options: PlanOptions; scopes: Map<string, Set<string>> } | undefined;
  private readonly changes: ChangeMap;
  private readonly now: () => number;
  private readonly feed: FeedOptions;
  private readonly reads: OrgReader;

  constructor(private readonly deps: InformerDeps) {
    this.changes = new ChangeMap(deps.kinds);
    this.now = deps.now ?? Date.now;
    this.feed = {
      overlapMs: deps.config.overlapMs,
      ...(deps.config.maxOverlapMs !== undefined ? { maxOverlapMs: deps.config.maxOverlapMs } : {}),
      maxPages: deps.config.maxPages,
    };
    this.reads = new OrgReader({ ...deps, now: this.now, feed: this.feed, resyncMs: deps.config.resyncMs });
  }

  /** Whether every registered kind can be followed (KindDefinition.informer); otherwise use no informer. */
  static usable(kinds: readonly KindDefinition[]): boolean {
    return ChangeMap.complete(kinds);
  }

  /**
   * The live state of every managed (kind, org) of `desired` — or, with `scope`, of its scopes (an organization
   * the informer follows is read whole from the kept reads anyway: that costs no request).
   */
  async read(
    desired: DesiredState,
    options: PlanOptions,
    request: { scope?: ScopeSet; full?: boolean } = {},
  ): Promise<{ live: LiveState; orgs: OrgRead[] }> {
    const byOrg = new Map<string, Set<string>>();
    for (const key of managedScopes(desired)) {
      const org = orgOfKey(key);
      const set = byOrg.get(org);
      if (set) set.add(key);
      else byOrg.set(org, new Set([key]));
    }
    const orgs = request.scope ? [...new Set([...request.scope].map(orgOfKey))] : [...byOrg.keys()];
    this.last = { desired, options, scopes: byOrg };
    if (!request.scope) for (const org of this.orgs.keys()) if (!byOrg.has(org)) this.orgs.delete(org);
    const results = await Promise.all(
      orgs.map((org) => this.readOrg(org, byOrg.get(org) ?? new Set(), desired, options, request)),
    );
    const live: LiveState = new Map();
    for (const r of results) for (const [k, v] of r.live) live.set(k, v);
    for (const r of results) this.deps.onRead?.(r.read);
    return { live, orgs: results.map((r) => r.read) };
  }

  /**
   * After an apply: mark stale what docops's own requests changed, read it again now (so the run ends with
   * reads it can vouch for), and expect their events (own-events.ts). Never throws: what cannot be read now is
   * read by the next run.
   */
  async wrote(plan: Plan, report: ApplyReport, desired: DesiredState, options: PlanOptions): Promise<void> {
    const touched = new Set<OrgState>();
    const lagMs = this.deps.client.listLag?.() ?? 0;
    for (const w of ownWrites(plan, report)) {
      const st = this.orgs.get(w.org);
      if (!st?.cache) continue;
      const c = changeOfWrite(w);
      if (!c) continue;
      let stales: StaleRead[] | undefined;
      let target: { type: string; id: string | undefined; part: string };
      if ('list' in c) {
        stales = [{ list: c.list }];
        target = { type: pathTarget(c.list)!.type, id: w.createdId, part: '' };
      } else {
        const known = this.changes.stale(c.change, w.org, this.view(st));
        stales = known ?? this.changes.stale(c.fallback, w.org, this.view(st));
        target = { ...c.change, part: partOf((known ? c.change : c.fallback).action) };
      }
      if (!stales) {
        forgetReads(st, 'own-write'); // nobody can say what it changed: read everything at the next run
        continue;
      }
      this.mark(st, stales);
      // A whole list (an item is read alone, by GET, which is current) is read again until the lag has passed.
      if (lagMs > 0)
        for (const s of stales)
          if (!('get' in s) && !('list' in s && s.item)) st.lagging.push({ stale: s, until: this.now() + lagMs });
      if (w.applied && target.id !== undefined) st.own.add(target.type, target.id, target.part, this.now());
      touched.add(st);
    }
    const scopes = this.scopesByOrg(desired);
    await Promise.all(
      [...touched].map((st) =>
        this.reads.fetchOver(st, scopes.get(st.org) ?? new Set(), desired, options).catch((err: unknown) => {
          this.deps.logger?.warn(
            { org: st.org, err },
            'informer: reading what the apply changed failed; the next run reads it',
          );
        }),
      ),
    );
  }

  /**
   * Between runs: poll every organization the informer follows and say which have something for a run — an
   * event that is not docops's own, a gap, a log gone unavailable, a resync that finished — keeping each answer
   * for that run (it does not poll again). Starts a resync that is due. A quiet organization costs one request.
   */
  async peek(): Promise<Set<string>> {
    const busy = new Set<string>();
    let asked: Promise<string | undefined> | undefined;
    const self = (): Promise<string | undefined> =>
      (asked ??= this.deps.selfId?.().catch(() => undefined) ?? Promise.resolve(undefined));
    await Promise.all(
      [...this.orgs.values()].map(async (st) => {
        if (!st.cache || !st.cursor) return;
        if (st.resync?.cache || st.unplanned) busy.add(st.org);
        const from = st.cursor;
        const polled = await poll(this.deps.client, st.org, from, this.feed);
        st.peeked = { from, result: polled };
        st.lastPollAt = this.now();
        if (
          polled.type !== 'events' ||
          (polled.events.length > 0 && !allOwn(st.own, polled.events, await self(), this.now()))
        )
          busy.add(st.org);
        if (this.last)
          this.reads.maybeResync(st, this.last.scopes.get(st.org) ?? new Set(), this.last.desired, this.last.options);
      }),
    );
    return busy;
  }

  status(): OrgStatus[] {
    return [...this.orgs.values()].map((st) => orgStatus(st, this.deps.config.resyncMs));
  }

  private state(org: string): OrgState {
    let st = this.orgs.get(org);
    if (!st) this.orgs.set(org, (st = newOrgState(org)));
    return st;
  }

  private scopesByOrg(desired: DesiredState): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const key of managedScopes(desired)) {
      const org = orgOfKey(key);
      if (!out.has(org)) out.set(org, new Set());
      out.get(org)!.add(key);
    }
    return out;
  }

  /**
   * One organization's live state for a run. A run whose plan does not cover every managed scope of the
   * organization (a scoped run) may take events, or read the organization whole, for objects it does not plan:
   * what it took is left pending (`unplanned`), and the next poll starts a run that plans the organization.
   * Only a run that covers it settles it.
   */
  private async readOrg(
    org: string,
    scopes: Set<string>,
    desired: DesiredState,
    options: PlanOptions,
    request: { scope?: ScopeSet; full?: boolean },
  ): Promise<{ live: LiveState; read: OrgRead }> {
    const st = this.state(org);
    const covers = request.scope === undefined || [...scopes].every((k) => request.scope!.has(k));
    const result = await this.readOrgFor(st, scopes, desired, options, request);
    const took = result.read.read === 'full' || (result.read.events ?? 0) > 0;
    if (covers) st.unplanned = false;
    else if (took) st.unplanned = true;
    return result;
  }

  private async readOrgFor(
    st: OrgState,
    scopes: Set<string>,
    desired: DesiredState,
    options: PlanOptions,
    request: { scope?: ScopeSet; full?: boolean },
  ): Promise<{ live: LiveState; read: OrgRead }> {
    const org = st.org;
    this.adopt(st);
    if (request.full) return this.reads.fullRead(st, scopes, desired, options, 'demand');
    if (!st.cache) {
      // A run scoped to a file change reads only its scopes where nothing is kept (no informer, or no audit log).
      if (request.scope)
        return this.reads.freshRead(
          st,
          new Set([...request.scope].filter((k) => orgOfKey(k) === org)),
          scopes,
          desired,
          options,
          st.why ?? 'start',
        );
      return this.reads.fullRead(
        st,
        scopes,
        desired,
        options,
        st.unavailable !== undefined ? 'unavailable' : (st.why ?? 'start'),
      );
    }
    // A poll between runs counts only if nothing moved the cursor since (a run or a full read while it was out).
    const polled =
      st.peeked?.from === st.cursor ? st.peeked!.result : await poll(this.deps.client, org, st.cursor!, this.feed);
    delete st.peeked;
    st.lastPollAt = this.now();
    if (polled.type === 'unavailable') {
      forgetReads(st, 'unavailable');
      st.unavailable = polled.status;
      const wanted = request.scope ? new Set([...request.scope].filter((k) => orgOfKey(k) === org)) : scopes;
      return this.reads.freshRead(st, wanted, scopes, desired, options, 'unavailable');
    }
    if (polled.type === 'gap') return this.reads.fullRead(st, scopes, desired, options, polled.reason);
    // Not knowing the token's user only costs reads: no event is taken for docops's own.
    const self = polled.events.length > 0 ? await this.deps.selfId?.().catch(() => undefined) : undefined;
    const stales: StaleRead[] = [];
    let skipped = 0;
    for (const e of polled.events) {
      if (
        self !== undefined &&
        e.actor.id === self &&
        st.own.take(e.target.type, e.target.id, partOf(e.action), this.now())
      ) {
        skipped++;
        continue;
      }
      this.deps.client.superseded?.(e.target.id); // someone else's change: what docops wrote no longer stands in
      const s = this.changes.stale({ type: e.target.type, id: e.target.id, action: e.action }, org, this.view(st));
      if (!s) return this.reads.fullRead(st, scopes, desired, options, 'unknown-action');
      stales.push(...s);
    }
    st.cursor = polled.cursor;
    st.events += polled.events.length - skipped;
    this.mark(st, stales);
    this.rereadLagging(st);
    const live = await this.reads.fetchOver(st, scopes, desired, options);
    this.reads.maybeResync(st, scopes, desired, options);
    return { live, read: { org, read: 'informer', events: polled.events.length - skipped, skipped } };
  }

  /** The lists docops wrote to within the lag: read again now (kept for the next run while still within it). */
  private rereadLagging(st: OrgState): void {
    const now = this.now();
    this.mark(
      st,
      st.lagging.map((l) => l.stale),
    );
    st.lagging = st.lagging.filter((l) => now < l.until);
  }

  private mark(st: OrgState, stales: readonly StaleRead[]): void {
    for (const s of stales) {
      st.cache?.invalidate(s);
      st.resync?.stales.push(s);
    }
    if (stales.length > 0) st.dirty = true;
  }

  /** The kept reads, and prune as the last fetch saw it (unknown: on, which marks more stale, never less). */
  private view(st: OrgState): InformerView {
    return { lists: (prefix) => st.cache?.lists(prefix) ?? [], prune: (kind, org) => st.prune?.(kind, org) ?? true };
  }

  /** A background resync that finished replaces the kept reads; what went stale since is marked again. */
  private adopt(st: OrgState): void {
    const done = st.resync?.cache;
    if (!done || !st.resync) return;
    for (const s of st.resync.stales) done.invalidate(s);
    Object.assign(st, { cache: done, fullReadAt: st.resync.started, dirty: true });
    delete st.resync;
  }
}
