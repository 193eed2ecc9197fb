/**
 * The contract every resource kind implements. Kinds register in one map (src/kinds/index.ts); the core
 * (load → validate → fetch → diff → order → apply) never branches on a kind's name.
 *
 * The contract is generic over what a kind keeps: `S` the spec of its desired entries, `O` its live objects
 * (`LiveObject<Fields>`, or a union of them discriminated by `kind` when its state holds objects of sub-kinds,
 * as Site's does), `A` the lookup data (`aux`) its fetch and its journal snapshots keep beside them, and `D` the
 * spec its documents write: the type the build generates from its schema (src/kinds/generated/), so `toDesired`
 * reads a schema-valid document typed, without restating the schema. A kind declares itself as
 * `KindDefinition<S, O, A, D>` and its code type-checks without casts.
 *
 * Without type arguments, `KindDefinition` (and `DesiredEntry`, `LiveObject`, `LiveKindState`) is a kind whose
 * types are forgotten: `unknown` inside. That is what the registry holds and what the core passes around; the
 * core never looks inside a spec, fields or aux. Registering `KindDefinition<S, O, A, D>` as a `KindDefinition` needs
 * no cast: every hook is declared as a method, and TypeScript compares method parameters bivariantly. What makes
 * that sound is the registry's one rule, kept by the core: it hands a kind only what that kind made — the entries
 * its `toDesired` returned (grouped under its name), the state its `fetch` returned, the journal parts its own
 * `snapshot` (or the plan's live objects of its kind) wrote under its name — and, to `toDesired`, only documents
 * its schema accepted (the loader validates each one first).
 */
import type { SourcePos } from './errors.js';
import type { ApiClient } from './api-client.js';
import type { ManifestDocument } from './document.js';
import type { BlockedObject, Plan, PlanWarning, RequestSpec, Step, UnmanagedObject, OwnedObject } from './plan.js';
import type { KindInformer } from './kind-informer.js';

export type { AuditChange, InformerView, KindInformer, ReadsView, StaleRead } from './kind-informer.js';

/**
 * One object a manifest asks for, normalised. `spec` holds only the fields the manifest writes, as the kind
 * read them from its schema-valid document (each kind's `toDesired` is where a validated document becomes `S`).
 */
export interface DesiredEntry<S = unknown> {
  /** Resource kind of this entry (a manifest kind may yield several, e.g. Site → SiteSection). */
  kind: string;
  org: string;
  /** Identity key, normalised (e-mail lower-cased, title as written, …). */
  key: string;
  /** A pinned id from the manifest, when given: identity by id (allows renames). */
  id?: string;
  spec: S;
  /** Where the manifest writes the object. May be a getter computed on first read: never spread an entry expecting to copy it. */
  readonly source: SourcePos;
  /** The document it comes from, its spec's type forgotten: the kind's own parse of it is `spec`. */
  doc: ManifestDocument<unknown>;
}

/**
 * One live object, with fields normalised to manifest field names. `K` narrows `kind` where a kind's state holds
 * objects of several (sub-)kinds, so a check of `kind` tells which fields an object has.
 */
export interface LiveObject<F = unknown, K extends string = string> {
  kind: K;
  org: string;
  key: string;
  id: string;
  fields: F;
  /**
   * The object whose list this one belongs to, when its kind reads such objects per object and only for some
   * (an access list's grants per space, a site's sections per site, a team's memberships per team). The safety
   * gate measures changes to them against that object's list, never against an organization total it did not
   * read. Absent: the kind reads every object of the organization (one list).
   */
  parent?: ParentRef;
}

/** An object that holds a list of sub-objects: its manifest kind, live id and key (as its own live object has them). */
export interface ParentRef {
  kind: string;
  id: string;
  key: string;
}

/**
 * What a kind fetched for one organisation: its objects plus any lookup data its diff needs. A journal snapshot
 * part (see Snapshot) has the same shape: the objects as the snapshot read them, and the aux it kept.
 */
export interface LiveKindState<O extends LiveObject = LiveObject, A = unknown> {
  objects: O[];
  aux?: A;
  /**
   * Live objects of other kinds this kind read only to know what its deletes take along (e.g. the spaces a
   * pruned collection holds): the safety gate counts them as live objects of their kind; nothing matches or
   * resolves them.
   */
  related?: LiveObject[];
  /**
   * The organization itself is unknown to the API (its GET answers 404): nothing was read, and every document of
   * the kind there is blocked at its `metadata.organization` (src/engine/unknown-org.ts).
   */
  orgNotFound?: true;
}

export type Report = (pos: SourcePos, message: string) => void;

/** Desired entries of (kind, org) by identity key (the first entry of a key); undefined when that (kind, org) has no entry. */
export interface IdentityLookup {
  keys(kind: string, org: string): ReadonlyMap<string, DesiredEntry> | undefined;
}

export interface FetchContext {
  client: ApiClient;
  /** Memoised full list (all pages). Two kinds asking for the same list cause one set of requests. */
  list<T = unknown>(path: string, query?: Record<string, string | number | boolean>): Promise<T[]>;
  /** Memoised GET. */
  get<T = unknown>(path: string): Promise<T>;
  /** Whether pruning is on for (kind, org): from the documents' `prune: true` or the config. */
  prune(kind: string, org: string): boolean;
}

export interface DiffContext {
  prune(kind: string, org: string): boolean;
  /** Options that change what a diff writes (e.g. inviting missing members). */
  options: DiffOptions;
  /**
   * The id of an object by manifest identity: its live id, or a ref to the step that creates it when an
   * earlier kind registered one. Undefined when neither exists.
   */
  resolve(kind: string, org: string, key: string): string | undefined;
  /** Make an id (live or ref) findable by later kinds through `resolve`. */
  register(kind: string, org: string, key: string, idOrRef: string): void;
  /**
   * Live state of another kind already fetched for this org (read-only). Its types are forgotten: read what the
   * use needs with a check (e.g. `o.kind`), or through the owning kind's own parse of it.
   */
  live(kind: string, org: string): LiveKindState | undefined;
  /**
   * The manifest entries of any kind in this org (read-only; empty when none), e.g. so a delete never takes an
   * object another kind's manifest describes, whichever kind is diffed first. Their specs are typed only inside
   * their own kind: another kind reads one through the owning kind's parse of `entry.doc` (or a checked read).
   */
  desired(kind: string, org: string): readonly DesiredEntry[];
}

export interface DiffOptions {
  /** Invite members missing from the org by e-mail (otherwise they are only a warning). */
  invite: boolean;
}

export interface DiffResult {
  steps: Step[];
  unmanaged: UnmanagedObject[];
  warnings: PlanWarning[];
  /**
   * Desired objects this diff cannot plan (an unresolved reference, a state no request sequence reaches). The
   * kind emits no step for them and registers no ref for their creates, so whatever refers to them is
   * blocked in turn; the rest of the plan goes on and the run fails.
   */
  blocked: BlockedObject[];
  /** Live objects (or parts of them) another writer owns, which this diff left alone (Plan.owned). */
  owned?: OwnedObject[];
}

/** A place in a kind's spec that may name a data file (KindDefinition.fileFields). */
export interface FileField {
  /** Path in `spec`, e.g. `['certificate']`. */
  path: readonly string[];
  /** What the file holds, with its article, for messages: `an OpenAPI spec`, `a certificate`. */
  holds: string;
  /** The largest file read, in bytes: what the API's own limit allows where it gives one, else generous. */
  maxBytes: number;
  /** Where that limit comes from, when the API gives it (said with a refusal). */
  limitReason?: string;
}

declare const specType: unique symbol;

/**
 * A kind's spec schema (schemas/<name>.schema.json, a JSON Schema object) together with the TypeScript type `D` of the
 * specs it accepts, which the build generates from it (src/kinds/generated/). The type exists only for the compiler:
 * at run time this is the schema's JSON.
 */
export interface SpecSchema<D = unknown> {
  readonly [specType]?: D;
  readonly [keyword: string]: unknown;
}

export interface KindDefinition<S = unknown, O extends LiveObject = LiveObject, A = unknown, D = unknown> {
  /** Manifest `kind:` value, e.g. `Team`. */
  kind: string;
  /** One line for --help and docs: how objects of this kind are identified. */
  identity: string;
  /**
   * Where in `spec` a manifest may name a file instead of writing the value (`{file: relative/path}`), e.g.
   * `certificate`, and what such a file holds. The loader reads each such file (inside the manifests directory,
   * within the field's limit) and hands the kind `{file, text, sha256}` instead (src/manifests/file-refs.ts).
   */
  fileFields?: readonly FileField[];
  /** JSON Schema of `spec` (schemas/<name>.schema.json), typed with the spec type generated from it (src/kinds/generated/). */
  schema: SpecSchema<D>;
  /** Parent → child depth: creates run in ascending, deletes in descending depth. */
  depth: number;
  /**
   * Fields of this kind's steps whose null is a value in the API, not "nothing": step kind (this kind's, or one of
   * its sub-kinds like `SiteAccess`) → top-level field of before/after → what null means, e.g.
   * `{ Members: { role: 'guest' } }`. The core copies what a step uses onto it (Step.nulls) for the renderers.
   */
  nullMeanings?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * Whether docops ever deletes objects of this kind (default true). A kind whose objects are never created or
   * deleted (an Organization) sets false: `prune: true` on its documents, `--prune KIND` and a daemon config's
   * `prune: {KIND: true}` would mean nothing, so they are validation or usage errors instead of being ignored.
   */
  prunable?: boolean;
  /**
   * Spec fields that, when written, are an object's complete list of sub-objects read per object (`access`, a
   * team's `members`, a site's `sections` …). A plan that deletes every entry of one such list (emptied or
   * replaced whole) is refused by the safety gate unless the document says `allowEmpty: true`, which is a
   * validation error on a kind that declares none.
   */
  lists?: readonly string[];
  /**
   * Manifest kinds this kind's diff reads ids or live state of: they are diffed first, whatever their depth,
   * so `resolve` sees the ids (or refs) they register.
   */
  needs?: string[];
  /**
   * What a scoped reconcile (src/engine/scope.ts) must take along when this kind's documents, or those of the kinds
   * it is affected by, change. Absent: unknown, so every run is a full reconcile.
   */
  scope?: KindScope<S>;
  /**
   * Documents of this kind → desired entries. `doc.spec` passed `schema` (the loader validates every document before
   * this), so it has the type `D` generated from that schema; export's probe documents are the one exception (see
   * src/export/probe.ts): they only steer a fetch and must not make this throw. Report semantic problems through `report`.
   */
  toDesired(doc: ManifestDocument<D>, report: Report): DesiredEntry<S>[];
  /**
   * Checks across all documents (references to other kinds; duplicates are checked by the loader). `index`
   * finds any kind's entries of an org by identity key without building another set. `warn` takes what is
   * not an error offline but must hold live (e.g. a reference naming no manifest must name a live object).
   */
  crossValidate?(
    entries: DesiredEntry<S>[],
    all: ReadonlyMap<string, DesiredEntry[]>,
    report: Report,
    index: IdentityLookup,
    warn?: Report,
  ): void;
  /** Fetch what the diff needs for one organisation, through the memoised context. */
  fetch(ctx: FetchContext, org: string, desired: DesiredEntry<S>[]): Promise<LiveKindState<O, A>>;
  /** Pure: desired + live → steps. Must not do I/O. */
  diff(ctx: DiffContext, org: string, desired: DesiredEntry<S>[], live: LiveKindState<O, A>): DiffResult;
  /**
   * Rules the safety gate enforces for this kind that no --force overrides (e.g. never remove or demote
   * the last admin, or the token's own user). Returns one message per violation.
   */
  guard?(
    plan: Plan,
    live: LiveKindState<O, A>,
    org: string,
    whoami: { id: string; email?: string } | undefined,
  ): string[];
  /**
   * The delete journal: read, right before a delete step removes `object` (a live object of this kind), what
   * it takes to bring it back — the object as export needs it and everything its delete takes along. A throw
   * fails the step (the delete is not sent). Without it the journal keeps the object as the plan fetched it.
   */
  snapshot?(ctx: FetchContext, object: O): Promise<Snapshot>;
  /** How `docops undo` brings this kind's journaled objects back (see KindUndo). */
  undo?: KindUndo<O, A>;
  /**
   * Which audit events (GET /orgs/{id}/audit-events) are about the object a step of this kind changes, so a plan
   * can name who made the drift (src/audit). Optional: by default a step's request paths name its object the way
   * the sandbox records it (src/audit/targets.ts). `id`: the event's target id; or, for an object that is gone
   * (a create), `label`: its last label, matched on delete events.
   */
  auditTargets?(step: Step): { type: string; id?: string; label?: string }[];
  /**
   * Additive mode (src/engine/modes.ts): one of this kind's create or update steps that also deletes what no
   * manifest writes (its `cascades`, e.g. a team's member-list PUT that adds and removes) → the same step without
   * the deletes, or null when nothing else is left. Without it such a step is not sent in additive mode and its
   * object is blocked (the plan cannot reach it without deleting).
   */
  withoutDeletes?(step: Step): Step | null;
  /**
   * How the daemon's informer (src/daemon/informer) follows this kind's objects through the audit log between
   * full reads: which events are about them, and which reads each makes stale. Every registered kind declares it;
   * an event no kind claims is a gap (the organization gets a full read).
   */
  informer?: KindInformer;
  /**
   * Live state → manifest documents (for `docops export`); defaults omitted, ids pinned where needed. Undo calls
   * it on merged snapshot parts too, whose aux is what the snapshots kept.
   */
  export?(org: string, live: LiveKindState<O, A>): object[];
}

/** How a kind takes part in scoped reconciles; see KindDefinition.scope and docs/daemon.md. */
export interface KindScope<S = unknown> {
  /**
   * Kinds (same organization) whose ids or live state the diff of `entries` looks up (`ctx.resolve`, `ctx.live`):
   * they are fetched and diffed along, as a full run would. Default: `needs`.
   */
  reads?(entries: readonly DesiredEntry<S>[]): readonly string[];
  /**
   * Kinds whose documents or plan this kind's plan depends on (their registered refs, blocked entries, or their
   * documents read through `ctx.desired`): when one of them is reconciled for a change, so is this kind.
   * Default: `needs`.
   */
  affectedBy?: readonly string[];
}

/**
 * A deleted object and what its delete takes along, as live states by manifest kind: the object under its own
 * kind, cascaded objects under theirs (a collection's nested collections and its spaces). Each kind's `export`
 * turns its part back into documents. Undo merges the parts of several snapshots of one (kind, org): objects
 * by id (the first snapshot wins), `aux` values key by key (records by key, lists as sets). Parts of several
 * kinds sit side by side, so their types are forgotten here; each kind's undo hooks get its own part typed.
 */
export type Snapshot = Record<string, LiveKindState>;

/** What happened to a journaled object when undo brings it back. */
export type UndoFate =
  /** Brought back through the API with its id (e.g. a soft-deleted space). */
  | { state: 'restore' }
  /** Still (or again) live: nothing to bring back. */
  | { state: 'live' }
  /** Recreated from its document: a new object with a new id. `reason` says why it was not restored, if it could have been. */
  | { state: 'recreate'; reason?: string };

/** How undo's documents name other journaled objects. */
export interface UndoRefs {
  /** The fate of the journaled object (kind, org, id); undefined when the journal does not hold it (it survived). */
  fate(kind: string, org: string, id: string): UndoFate | undefined;
  /**
   * How a document names the object (kind, org, id) that undo recreates with a new id: its manifest key. Undefined
   * when the object keeps its id (restored, still live, or not in the journal): name it by id.
   */
  recreated(kind: string, org: string, id: string): string | undefined;
}

/** A restore through the API, as `KindUndo.restore` finds it possible. */
export interface RestorePlan {
  /** The requests that bring the object back (run before every other undo step). */
  requests: RequestSpec[];
  /** Shown beside the step, e.g. "restore the deleted space (keeps its id and content)". */
  note: string;
  /**
   * How the API shows the object once restored, so the rest of undo's plan is computed as if it were back: each
   * `item` is added to the list at `path` (no query) and `get` answers GETs of its own path.
   */
  listed: { path: string; item: unknown }[];
  get?: { path: string; body: unknown };
}

export type RestoreCheck =
  /** `losses`: what even the restore does not bring back (e.g. a site that no longer shows the space). */
  | { state: 'restorable'; restore: RestorePlan; losses?: string[] }
  | { state: 'live' }
  | { state: 'gone'; reason: string };

/**
 * `docops undo`: journaled snapshots → objects back. Every hook is optional; by default a kind's objects are
 * recreated from its `export`, and only the generic losses (a new id) are reported.
 */
export interface KindUndo<O extends LiveObject = LiveObject, A = unknown> {
  /**
   * Whether the API can bring `object` back as it was (e.g. a soft-deleted space within its retention), read
   * now through `ctx`. `part` is the merged snapshot part of the object's kind and org.
   */
  restore?(ctx: FetchContext, object: O, part: LiveKindState<O, A>, now: Date): Promise<RestoreCheck>;
  /**
   * The part of a snapshot with references to other journaled objects rewritten for `export`: an object undo
   * recreates gets a new id, so a document must name it by its manifest key (`refs.recreated`).
   */
  relink?(org: string, state: LiveKindState<O, A>, refs: UndoRefs): LiveKindState<O, A>;
  /** The documents that bring back the (relinked) objects of `state`; default: the kind's `export` of it. */
  documents?(org: string, state: LiveKindState<O, A>): object[];
  /** What cannot come back for the objects of `state`, beyond a new id: one message per object and loss. */
  losses?(org: string, state: LiveKindState<O, A>, refs: UndoRefs): UndoLoss[];
  /**
   * How to bring back an object of one of this kind's sub-kinds (no manifest kind of its own: a site's redirect rule,
   * its publication) that was deleted on its own, from its journaled fields: the sentence undo shows (what to write
   * in which manifest). Undefined: not one of this kind's.
   */
  loose?(object: LiveObject): string | undefined;
}

export interface UndoLoss {
  /** The object's key (as LiveObject.key). */
  key: string;
  id?: string;
  message: string;
}
