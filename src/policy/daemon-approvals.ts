/**
 * Approvals in the daemon (docs/policy.md, "Approvals"): the policy gate of each run (daemon-gate.ts), POST
 * /approve with the approver token, and pull-request comments by members of the approvers' GitHub team, read
 * while a plan waits. Either way an approval names the waiting plan's checksum and starts a run; that run applies
 * only a plan with that checksum, and uses the approval up once it has written. The book is kept in the journal
 * directory (approval-store.ts), read before and written after every change, so a restart or the replica that takes
 * the lease over finds it; each change is one at a time. Loaded only when the config has a policy.
 */
import { allProblems, configProblem, rejections } from '../model/errors.js';
import type { ApplyReport } from '../model/apply-report.js';
import type { Plan } from '../model/plan.js';
import type { LiveState } from '../model/state.js';
import type { Logger } from '../log.js';
import type { Env } from '../manifests/interpolate.js';
import { CHECKSUM_PATTERN } from './approval.js';
import { ApprovalStore, type ApprovalState } from './approval-store.js';
import { ApprovalBook, type Approval, type WaitingPlan } from './approvals.js';
import type { ApprovalsConfig } from './config.js';
import { githubToken, secret, type GitHubSource } from './approval-tokens.js';
import { judgePlan } from './daemon-gate.js';
import type { LoadedPolicy } from './evaluate.js';

export interface ApprovalsSetup {
  policy: LoadedPolicy;
  approvals?: ApprovalsConfig;
  manifestsDir: string;
  /** Where the approvals are kept (approvals.json): the daemon's journal directory. */
  journalDir: string;
  reconcileSecret?: string;
}

export interface ApprovalsDeps {
  env: Env;
  logger: Logger;
  kinds: readonly string[];
  /** Start a run (an approval was given). */
  trigger(): void;
  /** The manifests' git commit, when they are in a git checkout (pull-request approvals need it). */
  commit(): Promise<string | undefined>;
}

export interface ApprovalView {
  waiting: WaitingPlan | null;
  lastApplied: Approval | null;
  /** How approvals are taken here. */
  endpoint: boolean;
  githubTeam: string | null;
}

export type Answer = { status: number; body: Record<string, unknown> };

export class DaemonApprovals {
  readonly book = new ApprovalBook();
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private lastProblem: string | undefined;
  /** The changes to the book, one at a time (each reads the file, changes the book, writes the file). */
  private queue: Promise<unknown> = Promise.resolve();
  /** The approval a run's gate let through: used up when that run has written (observe). */
  private pending: { run: number; checksum: string } | undefined;
  private readonly store: ApprovalStore | undefined;

  private constructor(
    private readonly setup: ApprovalsSetup,
    private readonly deps: ApprovalsDeps,
    /** POST /approve's bearer token (the endpoint is off without one). */
    readonly token: string | undefined,
    private readonly github: GitHubSource | undefined,
  ) {
    const keys = [token, github?.token].filter((s) => s !== undefined);
    // Without a secret that takes approvals, none can be given: nothing to keep.
    this.store = keys.length > 0 ? new ApprovalStore(setup.journalDir, keys) : undefined;
  }

  static async start(setup: ApprovalsSetup, deps: ApprovalsDeps): Promise<DaemonApprovals> {
    const a = setup.approvals ?? {};
    const field = 'policy.approvals';
    // Both tokens read side by side: every problem at once, each at its field's place.
    const [approver, gh] = await Promise.allSettled([
      secret('approver token', [
        { from: 'DOCOPS_APPROVER_TOKEN', value: deps.env.DOCOPS_APPROVER_TOKEN },
        { from: `${field}.token`, value: a.token, at: a.at?.token },
        { from: `${field}.tokenFile`, file: a.tokenFile, at: a.at?.tokenFile },
      ]),
      a.github ? githubToken(a, deps.env, setup.policy) : undefined,
    ]);
    const found = approver.status === 'fulfilled' ? approver.value : undefined;
    const problems = rejections([approver, gh]);
    // Whoever may start a run must not thereby approve one; named at the field (or variable) the token came from.
    if (found !== undefined && found.value === setup.reconcileSecret)
      problems.push(
        configProblem(
          found.at,
          `${found.from}: the approver token must not be the reconcile secret (whoever may start a run must not thereby approve one)`,
        ),
      );
    const problem = allProblems(problems);
    if (problem) throw problem;
    const github = gh.status === 'fulfilled' ? gh.value : undefined;
    deps.logger.info(
      { rules: setup.policy.rules.length, approveEndpoint: found !== undefined, githubTeam: github?.team ?? null },
      'policy loaded',
    );
    const approvals = new DaemonApprovals(setup, deps, found?.value, github);
    await approvals.serial(() => approvals.refresh()); // what a previous run of the daemon (or leader) kept
    return approvals;
  }

  /** The run's policy gate (RunContext.policy): judged against the book as kept on disk now. */
  gate(plan: Plan, live: LiveState, run: number, log: Logger): Promise<void> {
    const p = {
      policy: this.setup.policy,
      book: this.book,
      kinds: this.deps.kinds,
      manifestsDir: this.setup.manifestsDir,
    };
    return this.serial(async () => {
      await this.refresh();
      const before = JSON.stringify(this.book.snapshot());
      try {
        const report = await judgePlan(p, plan, live, run, log);
        const approved = report.approval?.checksum;
        if (approved !== undefined) this.pending = { run, checksum: approved };
      } finally {
        if (JSON.stringify(this.book.snapshot()) !== before) await this.save();
      }
    });
  }

  /** POST /approve, its bearer token already checked: `{"checksum": "sha256:…", "approver": "name"}`. */
  approve(body: unknown): Promise<Answer> {
    const b = (typeof body === 'object' && body !== null ? body : {}) as { checksum?: unknown; approver?: unknown };
    if (typeof b.checksum !== 'string' || !CHECKSUM_PATTERN.test(b.checksum))
      return Promise.resolve({
        status: 400,
        body: {
          error:
            'expected {"checksum": "sha256:<64 hex digits>"}: the checksum of the plan that waits (status page, notification, plan output)',
        },
      });
    const who =
      typeof b.approver === 'string' && /^[\w.@+-]{1,100}$/.test(b.approver) ? `token:${b.approver}` : 'token';
    return this.take(b.checksum, who);
  }

  /**
   * A run ended: the approval its gate let through is used up if it wrote anything (kept if it wrote nothing: cut
   * off by the lease, stopped, failed before its first step); poll the pull request while a plan waits.
   */
  observe(run: { id: number; approval?: unknown }, report: ApplyReport | undefined): void {
    const used = this.pending?.run === run.id ? this.pending : undefined;
    if (used) {
      this.pending = undefined;
      const wrote = report !== undefined && report.applied.length + report.failed.length > 0;
      if (wrote) this.book.use(used.checksum); // at once in what the status page shows; kept on disk below
      void this.serial(() => this.settle(used.checksum, wrote)).catch((err: unknown) =>
        this.deps.logger.error({ err }, 'the approvals could not be kept in the journal directory'),
      );
    }
    const waits = run.approval !== undefined;
    if (!waits || !this.github) return this.stopPolling();
    void this.check();
    if (!this.timer) {
      this.timer = setInterval(() => void this.check(), this.github.pollMs);
      this.timer.unref();
    }
  }

  view(): ApprovalView {
    return {
      waiting: this.book.waiting ?? null,
      lastApplied: this.book.applied ?? null,
      endpoint: this.token !== undefined,
      githubTeam: this.setup.policy.approvers?.githubTeam ?? null,
    };
  }

  async close(): Promise<void> {
    this.stopPolling();
    await this.checking;
    await this.queue;
  }

  /** Read the pull request's comments once, after any read in flight (tests call it; the timer does otherwise). */
  check(): Promise<void> {
    const next = (this.checking ?? Promise.resolve()).then(() => this.readComments());
    this.checking = next;
    return next.finally(() => {
      if (this.checking === next) this.checking = undefined;
    });
  }

  /** Approve `checksum` if it is the waiting plan's, kept on disk before the answer says so. */
  private take(checksum: string, by: string, url?: string): Promise<Answer> {
    return this.serial(() => this.takeNow(checksum, by, url));
  }

  private async takeNow(checksum: string, by: string, url?: string): Promise<Answer> {
    await this.refresh();
    const before = this.book.snapshot();
    const answer = this.book.approve(checksum, by, url);
    if (!answer.ok)
      return { status: 409, body: { error: answer.reason, ...(answer.waiting ? { waiting: answer.waiting } : {}) } };
    try {
      await this.save();
    } catch (err) {
      this.book.restore(before);
      this.deps.logger.error({ err }, 'the approval could not be kept in the journal directory; not taken');
      return {
        status: 503,
        body: {
          error: 'the approval could not be kept (the journal directory is not writable: see the log); not taken',
        },
      };
    }
    this.deps.logger.info(
      { checksum, by, ...(url ? { url } : {}) },
      'plan approved; a run applies it if it is still exactly this plan',
    );
    this.deps.trigger();
    return { status: 202, body: { approved: true, checksum, by } };
  }

  private async readComments(): Promise<void> {
    const gh = this.github;
    const waiting = this.book.waiting;
    if (!gh || !waiting) return this.stopPolling();
    const commit = await this.deps.commit();
    if (commit === undefined)
      return this.problem(
        'the manifests are not in a git checkout, so no pull request can be found: approve with POST /approve',
      );
    try {
      const { findPullRequestApproval } = await import('../github/approvals.js');
      const found = await findPullRequestApproval({
        apiUrl: gh.apiUrl,
        token: gh.token,
        repository: gh.repository,
        team: gh.team,
        commit,
        checksum: waiting.checksum,
      });
      this.lastProblem = undefined;
      if (found && this.book.waiting?.checksum === waiting.checksum)
        await this.take(waiting.checksum, `github:${found.login}`, found.url);
    } catch (err) {
      this.problem(`reading approvals from GitHub failed: ${(err as Error).message}`);
    }
  }

  /** A run that was to apply `checksum` ended: used up if it wrote, else kept for the next run. */
  private async settle(checksum: string, wrote: boolean): Promise<void> {
    if (!wrote) {
      this.deps.logger.info({ checksum }, 'the approved plan was not applied (nothing written): the approval stays');
      return;
    }
    const kept = await this.kept();
    if (kept) this.book.restore(kept); // and used up at once: the book never shows the approval given again
    this.book.use(checksum);
    await this.save();
  }

  /** The book as kept on disk. */
  private async refresh(): Promise<void> {
    const kept = await this.kept();
    if (kept) this.book.restore(kept);
  }

  /** What the file holds (undefined without a store); a file that cannot be trusted is logged and approves nothing. */
  private async kept(): Promise<ApprovalState | undefined> {
    if (!this.store) return undefined;
    const read = await this.store.read();
    if (!('refused' in read)) return read.state;
    this.problem(`the approvals file ${this.store.file} is refused: ${read.refused}; nothing in it approves a plan`);
    return { given: [] };
  }

  private async save(): Promise<void> {
    await this.store?.write(this.book.snapshot());
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private problem(message: string): void {
    if (message !== this.lastProblem) this.deps.logger.warn({ component: 'approvals' }, message);
    this.lastProblem = message;
  }

  private stopPolling(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
