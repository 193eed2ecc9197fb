// Generated from schemas/plan.schema.json by tools/build/format-types.ts (npm run build): edit the schema, not this file.

export type Action = 'create' | 'update' | 'delete';
/**
 * Phases run in this order. prune: deleting live objects no manifest mentions (only when prune is on); delete: deletes a manifest asks for implicitly (e.g. a membership dropped from a managed team).
 */
export type Phase = 'create' | 'update' | 'delete' | 'prune';
/**
 * How much of a kind's live state docops may write (docs/kinds.md, "Who owns what"): authoritative — the manifests win; additive — create and update what is written, never delete or revert what is not; observe — never write, report the drift.
 */
export type OwnershipMode = 'authoritative' | 'additive' | 'observe';
/**
 * Only the managed (compared) fields (before: live, after: the manifests'); null for a create's before and a delete's after. Never secrets.
 */
export type Fields = {
  [k: string]: unknown;
} | null;

/**
 * What `docops plan --format json` prints, and the `plan` of a saved-plan file and of `docops apply --format json`. Compatibility (docs/policy.md, "The plan format"): within formatVersion 1 docops only adds optional members, each added here in the same release; a change that removes, renames or retypes a member, or changes its meaning, comes with formatVersion 2. Consumers should check formatVersion and ignore members they do not know.
 */
export type PlanDocument = {
  formatVersion: 1;
  /**
   * In apply order: phase (create, update, delete, prune), then wave, then kind, then key.
   */
  steps: Step[];
  /**
   * Live objects no manifest mentions, left alone (prune is off for their kind).
   */
  unmanaged: UnmanagedObject[];
  warnings: PlanWarning[];
  /**
   * Manifest objects the plan cannot reach: none of their steps are planned, and plan/apply exit 1.
   */
  blocked: BlockedObject[];
  /**
   * Changes the diff found that their ownership mode does not let docops make (observe: any; additive: a delete): shown, never sent, counted by no safety threshold.
   */
  reported?: ReportedChange[];
  /**
   * Live objects (or parts of them) another writer owns, which docops leaves alone: a site's structure under Git Sync.
   */
  owned?: OwnedObject[];
  attribution?: DriftAttribution;
  /**
   * The daemon's plans: the ids of the steps a manifest edit asked for (every other step reverts drift).
   */
  manifestChanges?: string[];
  /**
   * Derived, not part of the plan: the OAuth scopes the plan's reads used and its apply would use.
   */
  scopes?: {
    plan: TokenNeeds;
    apply: TokenNeeds;
  };
  policy?: PolicyVerdict;
};
export type Step = {
  /**
   * Unique within the plan and stable for the same inputs, e.g. Team/org1/platform#create.
   */
  id: string;
  action: Action;
  phase: Phase;
  kind: string;
  org: string;
  /**
   * The object's identity as the manifest names it (e-mail, title, path …).
   */
  key: string;
  /**
   * Depth in the parent → child hierarchy (plus nesting inside a kind).
   */
  wave: number;
  mode?: OwnershipMode;
  before: Fields;
  after: Fields;
  nulls?: Nulls;
  /**
   * Step ids that must succeed before this one runs.
   */
  dependsOn: string[];
  requests: RequestSpec[];
  source?: Source;
  /**
   * Human note shown in renderings, e.g. "invite by e-mail".
   */
  note?: string;
  /**
   * Live objects this step deletes along with its own object, as fetched for this plan; absent when it takes none. The renderers list them under the step and the safety gate counts each one as a delete of its own kind.
   */
  cascades?: CascadeObject[];
};
/**
 * What a null value of a top-level field of before/after means in the API, where it is a value rather than nothing (a member's role: null is a guest): field → meaning. Only fields the step holds null. Renderers show such a null as "null (guest)", not "(unset)".
 */
export type Nulls = {
  [k: string]: string;
};
export type RequestSpec = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * Path below the API base, starting with /, e.g. /orgs/o1/teams. Refs show as placeholders.
   */
  path: string;
  /**
   * The JSON body (printed plans show a masked field's stand-in text instead).
   */
  body?: unknown;
  /**
   * Values to keep from the response body for later steps: output name → dotted path in the body (e.g. id).
   */
  capture?: {
    [k: string]: string;
  };
  /**
   * The refs of this request and where they sit; nothing else in path or body is ever substituted.
   */
  refs?: RefSlot[];
  /**
   * On a create (or another write that is not idempotent): how to tell whether it happened after a failure that leaves that open. Several: a batch over several arrays of the body, each in its own list.
   */
  recover?: RecoverSpec[] | RecoverSpec;
  /**
   * Sending it again leaves what sending it once leaves (a move, adding a section to a group, turning SSO on), whatever its method: retried like a PUT after a failure that leaves open whether it happened. Without it a POST is never sent again once it may have reached the server.
   */
  idempotent?: true;
  settle?: SettleSpec;
  /**
   * Body values a printed plan (--format json) shows as this text instead of the value sent: top-level body field → text, e.g. a SAML certificate → its fingerprint. Apply and the saved-plan file keep the body as it is sent.
   */
  masked?: {
    [k: string]: string;
  };
  merge?: MergeSpec;
  joins?: JoinSpec;
  /**
   * A 2xx answer that says the write was not done: the step fails when the answer's dotted field equals value, with message. The answer's values are not quoted: they may be secrets, such as a payment session.
   */
  refusedWhen?: RefusedWhen[];
  batch?: BatchSpec;
};
/**
 * Where a ref sits in a request: a whole path segment starting at character offset of the path (at: path), or a whole body value at the JSON pointer pointer (at: body; '' = the body itself). The text there is the ref's placeholder; step and output name the step whose output fills it.
 */
export type RefSlot = {
  at: 'path' | 'body';
  offset?: number;
  pointer?: string;
  step: string;
  output: string;
};
/**
 * How apply finds the object a create request makes, in the list it lives in, after a failure that leaves open whether the server processed it: exactly one listed item matches → the create happened (the item stands in for the answer); none → it did not (sent again, or the step fails after a timeout); several → the step fails naming their ids. Values compared come from the request body after its refs are filled.
 */
export type RecoverSpec = {
  /**
   * A batch create: the body array at this JSON pointer makes one object per element, and match body pointers are relative to an element. With several RecoverSpecs on one request, each has its own each.
   */
  each?: string;
  /**
   * Ids of live objects that had this identity when the plan was made (claimed by other entries): never a match.
   */
  exclude?: string[];
  /**
   * Every condition must hold for a listed item to match.
   */
  match: RecoverMatch[];
  /**
   * The list to read, below the API base; holds no refs. Default: the request's own path after its refs are filled.
   */
  path?: string;
  /**
   * Appended to the list's path (/teams after /spaces/<<ref>>/permissions): a list below a new object.
   */
  suffix?: string;
};
export type RecoverMatch = {
  /**
   * JSON pointer into the resolved body (or into the element, with each) holding the value the field must equal; a value the body does not hold matches only an absent or null field.
   */
  body?: string;
  /**
   * Dotted path into a listed item, e.g. title, space.id, user.email.
   */
  field: string;
  /**
   * Compare strings case-insensitively (e-mail addresses).
   */
  ignoreCase?: boolean;
  /**
   * The field must differ from the value instead (what differs was written since the plan's live read).
   */
  not?: true;
  /**
   * Or a fixed value the field must equal (null: the field is absent or null).
   */
  value?: string | null;
};
/**
 * A post-condition of a write the server finishes after answering (an OpenAPI spec is processed after its PUT). Once the request succeeded, apply reads path (GET) until every until condition holds (dotted field equals value), at most reads times, waiting a growing delay between reads. Then the step fails when a failWhen field is set, with message, the field and its value, and detail's value. Reads that never settle fail the step too; either way the write itself stays done.
 */
export type SettleSpec = {
  path: string;
  until: {
    field: string;
    value: string;
  }[];
  failWhen?: {
    field: string;
    message?: string;
    detail?: string;
  }[];
  reads: number;
};
/**
 * A read-modify-write of an object the API only takes whole (e.g. a site's customization): body holds only the managed values (the patch). Right before sending, apply GETs the request's own path and lays the patch over what it read: a plain object merges member by member, any other value (or an object at a whole pointer) replaces the value read. omit: top-level members of the read the PUT does not take. whole: JSON pointers of objects that replace whole. pick: a PATCH sends only the patch's own top-level members and these, as read. sets: JSON pointers of lists written as a delta ({add, remove}). remove: JSON pointers deleted from the merged object. known: JSON pointers of the members docops knows of the objects at whole pointers (a member read that is not here is kept).
 */
export type MergeSpec = {
  known?: string[];
  omit?: string[];
  pick?: string[];
  remove?: string[];
  sets?: string[];
  whole?: string[];
};
/**
 * A create that answers with the ids of what it made (invites): they are objects of list (below the API base) from now on, and their ids are at the JSON pointer ids of the answer.
 */
export type JoinSpec = {
  ids: string;
  list: string;
};
export type RefusedWhen = {
  field: string;
  message: string;
  value: string;
};
/**
 * A bulk write: apply sends the requests of one ordered group with the same method, path and batch together, at most max elements of the body's list per request; each element's result (at results) whose failed.field equals failed.value fails its own step. Each step carries one such request holding its own element(s), complete on its own; a batched request carries nothing else that needs its own answer (no capture, recover, merge or settle).
 */
export type BatchSpec = {
  failed: RefusedWhen;
  list: string;
  max: number;
  results: string;
};
export type Source = {
  file: string;
  line: number;
  column: number;
};
/**
 * One live object the server deletes because a step deletes another (a collection takes the spaces inside it, a site its sections, site spaces, groups and share links, a team its memberships). Known from the fetched live state; an object the plan deletes with a step of its own is not repeated here.
 */
export type CascadeObject = {
  kind: string;
  org: string;
  key: string;
  id?: string;
  /**
   * How it goes when that is not a plain delete, e.g. "soft delete: restorable for 7 days".
   */
  note?: string;
};
export type UnmanagedObject = {
  kind: string;
  org: string;
  key: string;
  id?: string;
  mode?: OwnershipMode;
};
export type PlanWarning = {
  kind: string;
  org: string;
  key: string;
  message: string;
};
export type BlockedObject = {
  kind: string;
  org: string;
  key: string;
  /**
   * Why, naming what could not be resolved.
   */
  message: string;
  source?: Source;
};
/**
 * A change the diff found that docops does not make: its ownership mode forbids it (mode: an update or create in observe, a delete in additive), or it would revert drift the daemon's drift setting keeps (drift: report, or propose as a pull request). Shown as report-only, never sent: it has no requests.
 */
export type ReportedChange = {
  /**
   * Unique within the plan and stable for the same inputs, e.g. Team/org1/platform#create.
   */
  id: string;
  action: Action;
  phase: Phase;
  kind: string;
  org: string;
  /**
   * The object's identity as the manifest names it (e-mail, title, path …).
   */
  key: string;
  /**
   * Depth in the parent → child hierarchy (plus nesting inside a kind).
   */
  wave: number;
  /**
   * The ownership mode that keeps the change out.
   */
  mode?: 'additive' | 'observe';
  before: Fields;
  after: Fields;
  nulls?: Nulls;
  source?: Source;
  /**
   * Human note shown in renderings, e.g. "invite by e-mail".
   */
  note?: string;
  /**
   * Live objects this step deletes along with its own object, as fetched for this plan; absent when it takes none. The renderers list them under the step and the safety gate counts each one as a delete of its own kind.
   */
  cascades?: CascadeObject[];
  /**
   * The daemon's drift setting that keeps the drift (not reverted).
   */
  drift?: 'report' | 'propose';
};
export type OwnedObject = {
  kind: string;
  org: string;
  key: string;
  id?: string;
  /**
   * The parts owned, e.g. sections, section groups and site spaces.
   */
  what: string;
  /**
   * The writer, e.g. Git Sync (repository acme/docs).
   */
  owner: string;
};
/**
 * Who made the live changes the steps revert (the organization's audit events).
 */
export type DriftAttribution = {
  /**
   * The most recent audit event on each step's object (steps without one are not listed).
   */
  changes: AttributedChange[];
  /**
   * One line: why the events could not be read (403, 404, …); the plan goes on without them.
   */
  unavailable?: string;
};
export type AttributedChange = {
  /**
   * The step id.
   */
  step: string;
  /**
   * Who: the actor's label (an e-mail for users), else its id.
   */
  actor: string;
  /**
   * When (ISO 8601).
   */
  at: string;
  /**
   * The audit action, e.g. member.updated.
   */
  action: string;
};
export type TokenNeeds = {
  scopes: string[];
  /**
   * Operations only a personal access token may call (names of operations, not secrets).
   */
  personalTokenOnly: string[];
  unmatched: string[];
};
/**
 * Derived, not part of the plan: what the configured policy says (docs/policy.md).
 */
export type PolicyVerdict = {
  rules: number;
  decision: 'pass' | 'warn' | 'require-approval' | 'deny';
  fired: {
    rule: string;
    outcome: 'deny' | 'require-approval' | 'warn';
    message: string;
    /**
     * The step it fired on ('' when it fired on the plan as a whole: a policy that ran out of time).
     */
    step: string;
    object: string;
    source?: Source;
    ruleSource: Source;
    /**
     * Why the rule could not be evaluated on this change (it counts as fired).
     */
    error?: string;
  }[];
  approval?: {
    checksum?: string;
    approvers?: {
      githubTeam: string;
    };
  };
};
