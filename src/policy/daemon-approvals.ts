/**
 * Approvals in the daemon (docs/policy.md, "Approvals"): the policy gate of each run (daemon-gate.ts), POST
 * /approve with the approver token, and pull-request comments by members of the approvers' GitHub team, read
 * while a plan waits. Either way an approval names the waiting plan's checksum and starts a run; that run applies
 * only a plan with that checksum. Loaded only when the config has a policy.
 */
import { readFile } from 'node:fs/promises';
import { allProblems, configProblem, rejections, type SourcePos } from '../model/errors.js';
import type { Plan } from '../model/plan.js';
import type { LiveState } from '../model/state.js';
import type { Logger } from '../log.js';
import type { Env } from '../manifests/interpolate.js';
import { registerSecret } from '../secrets.js';
import { CHECKSUM_PATTERN } from './approval.js';
import { ApprovalBook, type Approval, type WaitingPlan } from './approvals.js';
import { NO_APPROVERS, type ApprovalsConfig } from './config.js';
import { judgePlan } from './daemon-gate.js';
import type { LoadedPolicy } from './evaluate.js';

export const MIN_TOKEN = 16;

export interface ApprovalsSetup {
  policy: LoadedPolicy;
  approvals?: ApprovalsConfig;
  manifestsDir: string;
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

interface GitHubSource {
  apiUrl: string;
  repository: string;
  team: string;
  token: string;
  pollMs: number;
}

export class DaemonApprovals {
  readonly book = new ApprovalBook();
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private lastProblem: string | undefined;

  private constructor(
    private readonly setup: ApprovalsSetup,
    private readonly deps: ApprovalsDeps,
    /** POST /approve's bearer token (the endpoint is off without one). */
    readonly token: string | undefined,
    private readonly github: GitHubSource | undefined,
  ) {}

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
    return new DaemonApprovals(setup, deps, found?.value, github);
  }

  /** The run's policy gate (RunContext.policy). */
  gate(plan: Plan, live: LiveState, run: number, log: Logger): Promise<void> {
    const p = {
      policy: this.setup.policy,
      book: this.book,
      kinds: this.deps.kinds,
      manifestsDir: this.setup.manifestsDir,
    };
    return judgePlan(p, plan, live, run, log).then(() => undefined);
  }

  /** POST /approve, its bearer token already checked: `{"checksum": "sha256:…", "approver": "name"}`. */
  approve(body: unknown): Answer {
    const b = (typeof body === 'object' && body !== null ? body : {}) as { checksum?: unknown; approver?: unknown };
    if (typeof b.checksum !== 'string' || !CHECKSUM_PATTERN.test(b.checksum))
      return {
        status: 400,
        body: {
          error:
            'expected {"checksum": "sha256:<64 hex digits>"}: the checksum of the plan that waits (status page, notification, plan output)',
        },
      };
    const who =
      typeof b.approver === 'string' && /^[\w.@+-]{1,100}$/.test(b.approver) ? `token:${b.approver}` : 'token';
    return this.take(b.checksum, who);
  }

  /** A run ended: poll the pull request while its plan waits, stop when nothing does. */
  observe(waits: boolean): void {
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
  }

  /** Read the pull request's comments once, after any read in flight (tests call it; the timer does otherwise). */
  check(): Promise<void> {
    const next = (this.checking ?? Promise.resolve()).then(() => this.readComments());
    this.checking = next;
    return next.finally(() => {
      if (this.checking === next) this.checking = undefined;
    });
  }

  private take(checksum: string, by: string, url?: string): Answer {
    const answer = this.book.approve(checksum, by, url);
    if (!answer.ok)
      return { status: 409, body: { error: answer.reason, ...(answer.waiting ? { waiting: answer.waiting } : {}) } };
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
        this.take(waiting.checksum, `github:${found.login}`, found.url);
    } catch (err) {
      this.problem(`reading approvals from GitHub failed: ${(err as Error).message}`);
    }
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

/** Pull-request approvals: the approvers' team and the GitHub token. */
async function githubToken(a: ApprovalsConfig, env: Env, policy: LoadedPolicy): Promise<GitHubSource | undefined> {
  if (!a.github) return undefined;
  const field = 'policy.approvals.github';
  const team = policy.approvers?.githubTeam;
  if (!team) throw configProblem(a.at?.github, NO_APPROVERS);
  const token = await secret(
    'GitHub token',
    [
      { from: 'DOCOPS_GITHUB_TOKEN', value: env.DOCOPS_GITHUB_TOKEN },
      { from: `${field}.tokenFile`, file: a.github.tokenFile, at: a.at?.githubTokenFile },
    ],
    1,
  );
  if (token === undefined)
    throw configProblem(a.at?.github, `${field}: no GitHub token (tokenFile, or DOCOPS_GITHUB_TOKEN)`);
  return {
    apiUrl: a.github.apiUrl,
    repository: a.github.repository,
    team,
    token: token.value,
    pollMs: a.github.pollMs,
  };
}

/** Where a secret may come from, first found first: an environment variable, a value in the config, a file it names. */
interface SecretSource {
  /** The variable or the config field, as messages name it. */
  from: string;
  value?: string | undefined;
  file?: string | undefined;
  /** The field's place in the config (none for a variable). */
  at?: SourcePos | undefined;
}

/** A secret from the environment, the config or a file; registered before anything can show it. */
async function secret(
  what: string,
  sources: readonly SecretSource[],
  min = MIN_TOKEN,
): Promise<{ value: string; from: string; at?: SourcePos } | undefined> {
  for (const s of sources) {
    let value = s.value !== '' ? s.value : undefined;
    if (value === undefined && s.file !== undefined) {
      try {
        value = (await readFile(s.file, 'utf8')).trim();
      } catch (err) {
        throw configProblem(
          s.at,
          `${s.from}: cannot read the ${what} file ${s.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        );
      }
    }
    if (value === undefined) continue;
    registerSecret(value);
    if (value.length < min) throw configProblem(s.at, `${s.from}: the ${what} must be at least ${min} characters`);
    return { value, from: s.from, ...(s.at ? { at: s.at } : {}) };
  }
  return undefined;
}
