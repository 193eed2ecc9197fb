/**
 * The contract every resource kind implements. Kinds register in one map (src/kinds/index.ts); the core
 * (load → validate → fetch → diff → order → apply) never branches on a kind's name.
 */
import type { SourcePos } from './errors.js';
import type { ApiClient } from '../api/types.js';
import type { ManifestDocument } from '../manifests/document.js';
import type { BlockedObject, Plan, PlanWarning, Step, UnmanagedObject } from './plan.js';

/** One object a manifest asks for, normalised. `spec` holds only the fields the manifest writes. */
export interface DesiredEntry<S = Record<string, unknown>> {
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
  doc: ManifestDocument;
}

/** One live object, with fields normalised to manifest field names. */
export interface LiveObject<F = Record<string, unknown>> {
  kind: string;
  org: string;
  key: string;
  id: string;
  fields: F;
}

/** What a kind fetched for one organisation: its objects plus any lookup data its diff needs. */
export interface LiveKindState {
  objects: LiveObject[];
  aux?: Record<string, unknown>;
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
  /** Live state of another kind already fetched for this org (read-only). */
  live(kind: string, org: string): LiveKindState | undefined;
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
}

export interface KindDefinition {
  /** Manifest `kind:` value, e.g. `Team`. */
  kind: string;
  /** One line for --help and docs: how objects of this kind are identified. */
  identity: string;
  /** JSON Schema of `spec` (schemas/<kind>.schema.json). */
  schema: object;
  /** Parent → child depth: creates run in ascending, deletes in descending depth. */
  depth: number;
  /**
   * Whether docops ever deletes objects of this kind (default true). A kind whose objects are never created or
   * deleted (an Organization) sets false: `prune: true` on its documents, `--prune KIND` and a daemon config's
   * `prune: {KIND: true}` would mean nothing, so they are validation or usage errors instead of being ignored.
   */
  prunable?: boolean;
  /**
   * Manifest kinds this kind's diff reads ids or live state of: they are diffed first, whatever their depth,
   * so `resolve` sees the ids (or refs) they register.
   */
  needs?: string[];
  /** Documents of this kind → desired entries. Report semantic problems through `report`. */
  toDesired(doc: ManifestDocument, report: Report): DesiredEntry[];
  /**
   * Checks across all documents (references to other kinds; duplicates are checked by the loader). `index`
   * finds any kind's entries of an org by identity key without building another set. `warn` takes what is
   * not an error offline but must hold live (e.g. a reference naming no manifest must name a live object).
   */
  crossValidate?(entries: DesiredEntry[], all: ReadonlyMap<string, DesiredEntry[]>, report: Report, index: IdentityLookup, warn?: Report): void;
  /** Fetch what the diff needs for one organisation, through the memoised context. */
  fetch(ctx: FetchContext, org: string, desired: DesiredEntry[]): Promise<LiveKindState>;
  /** Pure: desired + live → steps. Must not do I/O. */
  diff(ctx: DiffContext, org: string, desired: DesiredEntry[], live: LiveKindState): DiffResult;
  /**
   * Rules the safety gate enforces for this kind that no --force overrides (e.g. never remove or demote
   * the last admin, or the token's own user). Returns one message per violation.
   */
  guard?(plan: Plan, live: LiveKindState, org: string, whoami: { id: string; email?: string } | undefined): string[];
  /** What `docops undo` cannot restore for this kind, shown beside the recreated documents. */
  undoCaveat?: string;
  /** Live state → manifest documents (for `docops export`); defaults omitted, ids pinned where needed. */
  export?(org: string, live: LiveKindState): object[];
}
