/**
 * How the informer (informer.ts) reads one organization's live state: whole, keeping its reads from then on; fresh,
 * keeping nothing (no audit log); over the kept reads (only what went stale is read again); and whole in the
 * background at low priority (a resync). The informer decides which, from the organization's audit events.
 */
import type { ApiClient } from '../../model/api-client.js';
import { latestCursor, type FeedOptions } from '../../audit/feed.js';
import type { KindDefinition } from '../../model/kind.js';
import { ReadCache } from '../../engine/read-cache.js';
import { fetchLive, pruneResolver, type PlanOptions } from '../../engine/reconcile.js';
import type { DesiredState, LiveState } from '../../model/state.js';
import { documentFingerprints } from '../../engine/scope.js';
import type { Logger } from '../../log.js';
import { forgetReads, type FullReason, type OrgRead, type OrgState, type Resync } from './org-state.js';

export interface OrgReaderDeps {
  kinds: readonly KindDefinition[];
  client: ApiClient;
  /** For background resyncs: yields to every other request (default: `client`). */
  background?: ApiClient;
  now: () => number;
  feed: FeedOptions;
  /** A background full read this often (0: never). */
  resyncMs: number;
  logger?: Logger;
  /** Told of every organization read. */
  onRead?: (read: OrgRead) => void;
}

export class OrgReader {
  constructor(private readonly deps: OrgReaderDeps) {}

  /** The whole organization read again; its reads kept from now on unless its audit log is unavailable. */
  async fullRead(
    st: OrgState,
    scopes: Set<string>,
    desired: DesiredState,
    options: PlanOptions,
    why: FullReason,
  ): Promise<{ live: LiveState; read: OrgRead }> {
    delete st.resync; // whatever a resync reads is older than this
    const start = await latestCursor(this.deps.client, st.org, this.deps.feed);
    if (start.type === 'unavailable') {
      forgetReads(st, 'unavailable');
      st.unavailable = start.status;
      return this.freshRead(st, scopes, scopes, desired, options, 'unavailable');
    }
    const cache = new ReadCache();
    const live = await this.fetchThrough(cache, this.deps.client, scopes, desired, options, st);
    Object.assign(st, {
      cache,
      cursor: start.cursor,
      fullReadAt: this.deps.now(),
      why,
      live,
      liveFor: this.fetchedFor(scopes, desired, options),
      dirty: false,
    });
    delete st.unavailable;
    st.own.clear();
    return { live, read: { org: st.org, read: 'full', why } };
  }

  /** `wanted` read fresh, nothing kept: a full read when it is all the organization's scopes, else a scoped one. */
  async freshRead(
    st: OrgState,
    wanted: Set<string>,
    all: Set<string>,
    desired: DesiredState,
    options: PlanOptions,
    why: FullReason,
  ): Promise<{ live: LiveState; read: OrgRead }> {
    const live = await fetchLive(this.deps.client, this.deps.kinds, desired, { ...options, scope: wanted });
    const whole = [...all].every((k) => wanted.has(k));
    return { live, read: whole ? { org: st.org, read: 'full', why } : { org: st.org, read: 'scoped' } };
  }

  /** Every kind's fetch over the kept reads; the last result again when nothing changed since. */
  async fetchOver(st: OrgState, scopes: Set<string>, desired: DesiredState, options: PlanOptions): Promise<LiveState> {
    const forWhat = this.fetchedFor(scopes, desired, options);
    if (!st.dirty && st.live && st.liveFor === forWhat) return st.live;
    const live = await this.fetchThrough(st.cache!, this.deps.client, scopes, desired, options, st);
    Object.assign(st, { live, liveFor: forWhat, dirty: false });
    return live;
  }

  /** A background full read when one is due; its reads replace the kept ones at the next run (Informer.adopt). */
  maybeResync(st: OrgState, scopes: Set<string>, desired: DesiredState, options: PlanOptions): void {
    const every = this.deps.resyncMs;
    if (every <= 0 || st.resync || st.fullReadAt === undefined || this.deps.now() - st.fullReadAt < every) return;
    const resync: Resync = { started: this.deps.now(), stales: [] };
    st.resync = resync;
    const cache = new ReadCache();
    this.deps.logger?.info({ org: st.org }, 'informer: resync started (a full read in the background)');
    this.fetchThrough(cache, this.deps.background ?? this.deps.client, scopes, desired, options).then(
      () => {
        if (st.resync === resync) resync.cache = cache;
        this.deps.onRead?.({ org: st.org, read: 'full', why: 'resync' });
      },
      (err: unknown) => {
        if (st.resync === resync) delete st.resync;
        st.fullReadAt = this.deps.now(); // tried again after another interval
        this.deps.logger?.warn({ org: st.org, err }, 'informer: the background resync failed; the reads kept go on');
      },
    );
  }

  private async fetchThrough(
    cache: ReadCache,
    client: ApiClient,
    scopes: Set<string>,
    desired: DesiredState,
    options: PlanOptions,
    st?: OrgState,
  ): Promise<LiveState> {
    const prune = pruneResolver(desired, options);
    if (st) st.prune = prune;
    const pass = cache.pass(client, prune);
    const live = await fetchLive(client, this.deps.kinds, desired, { ...options, scope: scopes }, () => pass.context);
    pass.end();
    return live;
  }

  /** What a fetch depends on besides the reads: the organization's documents and the plan options. */
  private fetchedFor(scopes: Set<string>, desired: DesiredState, options: PlanOptions): string | undefined {
    const prints = documentFingerprints(desired);
    if (!prints) return undefined; // nothing to compare: always fetch
    return JSON.stringify([
      [...scopes].sort().map((k) => [k, prints.get(k)]),
      options.prune ?? {},
      options.invite === true,
    ]);
  }
}
