/**
 * What a plan's step sends: its requests (method, path, body, where refs sit), and how apply writes them in bulk,
 * merges them with live values, waits for them to settle and recovers a write whose answer was lost. The plan
 * (plan.ts) is the steps; this is the vocabulary of one request.
 */
import type { HttpMethod } from '@docops/api-shared';

/** The API's methods, shared with the sandbox (@docops/api-shared). */
export type { HttpMethod } from '@docops/api-shared';

/**
 * Where a ref sits in a request: a whole path segment starting at character `offset` of the path, or a whole
 * body value at the JSON pointer `pointer` ('' = the body itself). The text there is the ref's placeholder.
 */
export interface RefSlot {
  at: 'path' | 'body';
  offset?: number;
  pointer?: string;
  /** The step whose output fills the slot, and which output. */
  step: string;
  output: string;
}

export interface RequestSpec {
  method: HttpMethod;
  /** Path below the API base, starting with `/`, e.g. `/orgs/o1/teams`. Refs show as placeholders. */
  path: string;
  body?: unknown;
  /** Values to keep from the response body for later steps: output name → dotted path in the body (e.g. `id`). */
  capture?: Record<string, string>;
  /** The refs of this request and where they sit; nothing else in path or body is ever substituted. */
  refs?: RefSlot[];
  /**
   * On a create (or another write that is not idempotent): how to tell whether it happened after a failure that
   * leaves that open (see RecoverSpec). Several: a batch over several arrays of the body, each in its own list.
   */
  recover?: RecoverSpec | RecoverSpec[];
  /**
   * Sending it again leaves what sending it once leaves (a move to a parent or next to a sibling, adding a section
   * to a group, turning SSO on), whatever its method: the client retries it like a PUT after a failure that leaves
   * open whether it happened. Without it a POST is never sent again once it may have reached the server.
   */
  idempotent?: true;
  /** A read-modify-write of an object the API only replaces whole (see MergeSpec); `body` is then the patch. */
  merge?: MergeSpec;
  /**
   * A create that answers with the ids of what it made, not the objects (invites: `users`): they are objects of
   * `list` from now on, and the ids are at the JSON pointer `ids` of the answer. Lists that answer late show them
   * (src/api/expectations.ts), each read once by id.
   */
  joins?: JoinSpec;
  /** After the request succeeded: what the server must show before the step goes on (see SettleSpec). */
  settle?: SettleSpec;
  /**
   * Body values a printed plan (`--format json`) shows as this text instead of the value sent: top-level body
   * field → text, e.g. a SAML certificate → its fingerprint. Apply and the saved-plan file (`plan --out`) keep
   * the body as it is sent.
   */
  masked?: Record<string, string>;
  /**
   * A 2xx answer that says the write was not done (a publish answered with a checkout session): the step fails when
   * the answer's dotted `field` equals `value`, with `message` (the answer's values are not quoted: they may be
   * secrets, such as a payment session).
   */
  refusedWhen?: { field: string; value: string; message: string }[];
  /** Sent together with the same request of other steps, as one bulk write (see BatchSpec). */
  batch?: BatchSpec;
}

/**
 * A write the API takes in bulk — one request holding up to `max` elements in the body array `list`, answered with
 * one result per element, in order, at `results` (a site's redirects: `PUT …/redirects`). Each step carries one
 * such request holding its own element(s), complete on its own (the plan stays plain data: a step applied alone
 * sends exactly its request). Apply sends the requests with this BatchSpec, method and path of one ordered group
 * together, at most `max` elements per request, and reads each step's result(s): a result whose `failed.field`
 * equals `failed.value` fails that step (with the result's `failed.message` field as the reason) while the other
 * steps of the request stand. A batched request carries nothing else that needs its own answer (no capture,
 * recover, merge or settle); the rest of its body is the first step's.
 */
export interface BatchSpec {
  list: string;
  max: number;
  results: string;
  failed: { field: string; value: string; message: string };
}

/**
 * A PUT of an object the API only takes whole (e.g. a site's customization), when docops manages some of its
 * members. The plan stays plain data: `body` holds only the managed values, as a partial object (the patch).
 * Right before sending, apply GETs the request's own path and lays the patch over what it read (mergePatch in
 * src/engine/merge.ts): a plain object in the patch merges member by member into the object read, any other value
 * (a list, a scalar, null, or an object at a `whole` pointer) replaces the value read. Top-level members in
 * `omit` (read-only ones the PUT refuses, e.g. `updatedAt`) are left out. So a member no manifest writes is sent
 * back as the server holds it when the step runs, never reset, whatever changed since the plan was made.
 */
export interface MergeSpec {
  /** Top-level members of what GET answers that the PUT does not take. */
  omit?: string[];
  /** JSON pointers (into the patch) of objects that replace the value read whole instead of merging into it. */
  whole?: string[];
  /**
   * A PATCH that must name members it does not change (visitor sign-in's `backend`): only the patch's own top-level
   * members and these, as read, are sent; nothing else of the read. Absent: the whole merged object is sent.
   */
  pick?: string[];
  /**
   * JSON pointers (into the patch) of lists written as a delta: the patch holds `{add: [...], remove: [...]}` there,
   * and the list sent is the list read without the removed items, then with each added item it lacks (an item
   * someone else added since the plan stays). E-mail domains, which the API takes only whole.
   */
  sets?: string[];
  /** JSON pointers of members deleted from the merged object (an adaptive-schema claim the manifest no longer has). */
  remove?: string[];
  /**
   * JSON pointers of the members docops knows of the objects at `whole` pointers (every shape's). A member of the
   * object read whose pointer is not here is one docops does not know (a newer API's): it is kept, never dropped by
   * the replacement. Absent: the objects replace whole, whatever they held.
   */
  known?: string[];
}

/**
 * A post-condition of a write the server finishes after answering (an OpenAPI spec is processed after its PUT).
 * Once the request succeeded, apply reads `path` (GET, retried like any GET) until every `until` condition
 * holds, at most `reads` times, waiting a growing delay between reads (SETTLE_DELAYS_MS in src/engine/settle.ts;
 * the first read is immediate). Then the step fails when a `failWhen` field is set (not absent, null or empty),
 * naming its value. Reads that never settle fail the step too. Either way the write itself stays done: the next
 * plan compares the state it left. Plain data like the rest of the plan: a saved plan settles the same way.
 */
export interface SettleSpec {
  /** What to read, below the API base; holds no refs. */
  path: string;
  /** Every condition must hold on the read body (dotted field path equals the value). */
  until: { field: string; value: string }[];
  /** Once settled, any of these set fails the step: `message`, the field and its value, and `detail`'s value (a dotted path). */
  failWhen?: { field: string; message?: string; detail?: string }[];
  /** The most reads before giving up (≥ 1). */
  reads: number;
}

/**
 * How apply finds the object a create request makes, in the list it lives in, by the identity its kind matches
 * live objects with. Used only when the create failed in a way that leaves open whether the server processed it
 * (ApiError.effect `maybe` — a 5xx, a connection broken after sending — or `pending` — a timeout). Apply never
 * re-sends such a create blindly; it reads the list (a GET retried like any other) and:
 *  - exactly one listed item matches → the create happened: the item stands in for the response (capture reads
 *    it) and the step goes on;
 *  - none → it did not happen: the request is sent again (after `pending` the server may still be working on it,
 *    so the step fails instead, saying so);
 *  - several → the step fails naming their ids (never a guess).
 * Values compared come from the request body after its refs are filled, so a ref'd parent id compares as the id.
 * A request without `recover` that fails that way fails its step, as before.
 */
export interface RecoverSpec {
  /** The list to read, below the API base; holds no refs. Default: the request's own path after its refs are filled. */
  path?: string;
  /** Appended to the list's path (`/teams` after `/spaces/<<ref>>/permissions`): a list below a new object. */
  suffix?: string;
  /** Every condition must hold for a listed item to match. */
  match: RecoverMatch[];
  /** Ids of live objects that had this identity when the plan was made (claimed by other entries): never a match. */
  exclude?: string[];
  /**
   * A batch create: the body array at this JSON pointer makes one object per element, and `match` body pointers
   * are relative to an element. Elements found are left out when the request is sent again; when every element is
   * found the request is done. Such a request captures nothing. With several RecoverSpecs on one request, each has
   * its own `each` (a grant's `/teams` and `/users`): elements found are left out of every array, an array left
   * empty is left out of the body, and the request is done when every element of every array is found.
   */
  each?: string;
}

export interface JoinSpec {
  /** The list the new objects are in (below the API base, no refs). */
  list: string;
  /** JSON pointer into the answer: an array of their ids. */
  ids: string;
}

/** A request's RecoverSpecs (none, one or several) as a list. */
export function recoverSpecs(r: Pick<RequestSpec, 'recover'>): RecoverSpec[] {
  return r.recover === undefined ? [] : Array.isArray(r.recover) ? r.recover : [r.recover];
}

/** The path of the list a RecoverSpec reads, for a request whose path (refs filled) is `path`. */
export const recoverPath = (spec: RecoverSpec, path: string): string => (spec.path ?? path) + (spec.suffix ?? '');

export interface RecoverMatch {
  /** Dotted path into a listed item, e.g. `title`, `space.id`, `user.email`. */
  field: string;
  /** JSON pointer into the resolved body (or into the element, with `each`) holding the value the field must equal; a value the body does not hold matches only an absent or null field. */
  body?: string;
  /** Or a fixed value the field must equal (null: the field is absent or null). */
  value?: string | null;
  /** Compare strings case-insensitively (e-mail addresses). */
  ignoreCase?: boolean;
  /**
   * The field must differ from the value instead (an object's state in the plan's live read, e.g. the `updatedAt`
   * of an OpenAPI spec a PUT publishes a version of: what differs was written since).
   */
  not?: true;
}
