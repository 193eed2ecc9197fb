/**
 * The few typed errors docops raises. One top-level handler (src/cli/main.ts) maps them to exit codes;
 * everything else is a bug and exits 1 with its stack at debug level.
 */

export const EXIT = { ok: 0, error: 1, changesPending: 2, safetyRefused: 3 } as const;

/** A position in a manifest or config file; line and column are 1-based. */
export interface SourcePos {
  file: string;
  line: number;
  column: number;
}

export interface ValidationIssue extends SourcePos {
  message: string;
  /** JSON-pointer-like path inside the document, e.g. "/spec/members/3/email". */
  path?: string;
}

export function formatIssue(i: ValidationIssue): string {
  return `${i.file}:${i.line}:${i.column}: ${i.message}`;
}

export class DocopsError extends Error {
  readonly exitCode: number = EXIT.error;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Manifests or config did not validate. Carries every issue found, never just the first. */
export class ValidationError extends DocopsError {
  constructor(readonly issues: ValidationIssue[]) {
    super(`${issues.length} validation error${issues.length === 1 ? '' : 's'}:\n` + issues.map(formatIssue).join('\n'));
  }
}

/** Bad command line or configuration that has no file position. */
export class UsageError extends DocopsError {}

/**
 * A problem with one value of a config file: a ValidationError at the value's place when the caller knows it (every
 * config problem names its file:line:column), else a UsageError whose message names the value (an environment
 * variable, a setting built in code).
 */
export function configProblem(at: SourcePos | undefined, message: string): DocopsError {
  return at ? new ValidationError([{ ...at, message }]) : new UsageError(message);
}

/**
 * The problems of several checks run side by side, as one error (every problem at once): a ValidationError when
 * each is one, else a UsageError listing them all; undefined when none failed. Anything that is not a
 * DocopsError (a bug) is thrown as it is.
 */
export function allProblems(errors: readonly unknown[]): DocopsError | undefined {
  const bug = errors.find((e) => !(e instanceof DocopsError));
  if (bug !== undefined) throw bug;
  const found = errors as readonly DocopsError[];
  if (found.length <= 1) return found[0];
  if (found.every((e) => e instanceof ValidationError)) return new ValidationError(found.flatMap((e) => e.issues));
  const lines = found.flatMap((e) => (e instanceof ValidationError ? e.issues.map(formatIssue) : [e.message]));
  return new UsageError(['invalid configuration:', ...lines].join('\n'));
}

/** The reasons of the promises that failed (for allProblems). */
export function rejections(settled: readonly PromiseSettledResult<unknown>[]): unknown[] {
  return settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
}

/**
 * What a failed request may have done on the server, over all its attempts (the API client sets it; see
 * src/api/retry.ts attemptEffect): `none` — provably nothing (never connected, or refused with a 4xx such as
 * 429); `maybe` — it may have been processed and the server is done with it (a 5xx answer, a connection that
 * broke after the request was sent); `pending` — no answer in time, so it may still be processed.
 */
export type RequestEffect = 'none' | 'maybe' | 'pending';

export interface ApiErrorOptions {
  cause?: unknown;
  effect?: RequestEffect;
  unreachable?: boolean;
}

/** An HTTP call failed for good (after retries). Never carries the token. */
/** What a 401 says besides the API's words: where a user finds out what is wrong with the token. */
export const UNAUTHORIZED_HINT = ' (the API refused the token: `docops whoami` says whose it is and what it may do)';

export class ApiError extends DocopsError {
  /** Undefined when the error did not come from the API client. */
  readonly effect: RequestEffect | undefined;
  /**
   * No attempt got any HTTP answer (refused, DNS, resets, timeouts) and the client ran out of retries: the API is
   * unreachable, not failing this one request.
   */
  readonly unreachable: boolean;
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number | undefined,
    readonly apiMessage: string,
    options?: ApiErrorOptions,
  ) {
    super(
      `${method} ${path} failed${status === undefined ? '' : ` with ${status}`}: ${apiMessage}${status === 401 ? UNAUTHORIZED_HINT : ''}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.effect = options?.effect;
    this.unreachable = options?.unreachable ?? false;
  }
}

/** Live state could not be matched to manifests unambiguously (e.g. two teams with one title). */
export class ConflictError extends DocopsError {}

/** The safety gate refused the plan. */
export class SafetyError extends DocopsError {
  override readonly exitCode: number = EXIT.safetyRefused;
  constructor(readonly violations: { rule: string; message: string }[]) {
    super('safety gate refused the plan:\n' + violations.map((v) => `- [${v.rule}] ${v.message}`).join('\n'));
  }
}

/** One policy rule that fired on one change (src/policy/model.ts FiredRule, the part a refusal names). */
export interface PolicyHit {
  rule: string;
  outcome: string;
  message: string;
  object: string;
  error?: string;
}

/**
 * The policy refused the plan (src/policy): a `deny` rule fired, or a `require-approval` rule fired and no
 * approval of exactly this plan was given. Exit 3, like the safety gate.
 */
export class PolicyError extends DocopsError {
  override readonly exitCode: number = EXIT.safetyRefused;
  constructor(
    readonly hits: readonly PolicyHit[],
    readonly why: string,
    /** Set when the plan waits for an approval: the checksum an approval of exactly this plan names. */
    readonly approvalChecksum?: string,
  ) {
    super(
      `policy refused the plan: ${why}\n` +
        hits
          .map((h) => `- [${h.outcome} ${h.rule}] ${h.object}: ${h.message}${h.error ? ` (${h.error})` : ''}`)
          .join('\n'),
    );
  }
}

/** A manifest object the plan cannot reach (src/model/plan.ts BlockedObject, repeated here to keep errors.ts a leaf). */
export interface BlockedIssue {
  kind: string;
  org: string;
  key: string;
  message: string;
  source?: SourcePos;
}

const blockedLines = (blocked: readonly BlockedIssue[]): string[] =>
  blocked.map(
    (b) =>
      `- ${b.kind} ${b.org}/${b.key}: ${b.source ? `${b.source.file}:${b.source.line}:${b.source.column}: ` : ''}${b.message}`,
  );

/** What else an apply's outcome says beyond failures: the API went away; objects left half-created. */
export interface ApplyOutcomeNotes {
  /** The failure that showed the API unreachable: apply stopped starting steps. */
  unreachable?: string;
  /** One sentence per object a create made whose later requests or dependent steps did not complete. */
  incomplete?: string[];
  /** The apply report, which says why each step failed, was printed already: the error names the steps only. */
  reported?: boolean;
}

/** Some steps of an apply failed (the others ran), and/or the plan could not reach some manifest objects. */
export class ApplyError extends DocopsError {
  constructor(
    readonly failures: { stepId: string; message: string }[],
    readonly skipped: string[],
    readonly blocked: readonly BlockedIssue[] = [],
    readonly notes: ApplyOutcomeNotes = {},
  ) {
    const incomplete = notes.incomplete ?? [];
    super(
      [
        ...(notes.unreachable !== undefined ? [`the API became unreachable, apply stopped: ${notes.unreachable}`] : []),
        ...(failures.length > 0 || skipped.length > 0
          ? [
              `${failures.length} step(s) failed, ${skipped.length} skipped ${notes.unreachable !== undefined ? '(not attempted)' : 'because they depend on a failed step or their kind was refused'}${notes.reported ? ` (why: the apply report above): ${failures.map((f) => f.stepId).join(', ')}` : ':'}`,
              ...(notes.reported ? [] : failures.map((f) => `- ${f.stepId}: ${f.message}`)),
            ]
          : []),
        ...(incomplete.length > 0 ? ['left behind:', ...incomplete.map((x) => `- ${x}`)] : []),
        ...(blocked.length > 0 ? [blockedSummary(blocked), ...blockedLines(blocked)] : []),
      ].join('\n'),
    );
  }
}

const blockedSummary = (blocked: readonly BlockedIssue[]): string =>
  `${blocked.length} manifest object(s) blocked: the plan cannot reach them, so nothing was planned for them:`;

/** The plan cannot reach some manifest objects; everything else was planned. `docops plan` exits 1. */
export class BlockedError extends DocopsError {
  constructor(readonly blocked: readonly BlockedIssue[]) {
    super([blockedSummary(blocked), ...blockedLines(blocked)].join('\n'));
  }
}

/** A saved plan no longer matches the manifests or the live state it was computed from. */
export class StalePlanError extends DocopsError {}
