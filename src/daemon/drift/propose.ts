/**
 * Drift the daemon keeps (docs/daemon.md, "Drift: revert, report or propose"). Per manifest kind, `drift:` in the
 * config says what a run does with a change made in the app: `revert` it (the default), `report` it (kept, shown),
 * or `propose` it — kept, and written as a minimal edit of the manifests (adopt.ts) in one pull request on one
 * branch, updated in place while the drift lasts. The pull request's body carries a fingerprint of the drift it
 * proposes: merged, the run waits for the manifests to catch up; closed unmerged, the next run reverts that drift;
 * the drift gone (undone in the app, or the manifests changed), the pull request is closed.
 */
import { createHash } from 'node:crypto';
import type { PlanOptions } from '../../engine/reconcile.js';
import type { LiveState } from '../../model/state.js';
import type { DesiredState } from '../../model/state.js';
import type { DriftPolicy, Plan, Step } from '../../model/plan.js';
import type { KindDefinition } from '../../model/kind.js';
import type { Logger } from '../../log.js';
import { applyFileEdits } from '../../manifests/yaml-edit.js';
import type { GitHub } from '../../github/client.js';
import {
  baseBranch,
  branchHead,
  comment,
  commitFiles,
  deleteBranch,
  editPull,
  latestPull,
  moveBranch,
  openPull,
  readFile,
  repositoryOf,
  type PullRequest,
} from '../../github/drift-pr.js';
import { adoptDrift, type Adoption } from './adopt.js';
import { driftToHold, holdSteps, type KeptPolicy } from './hold.js';
import { proposalBody, PROPOSAL_TITLE } from './proposal-text.js';

export interface ProposalTarget {
  /** OWNER/NAME of the manifests' repository. */
  repository: string;
  apiUrl: string;
  token: string;
  /** docops's branch (default docops/drift). */
  branch: string;
  /** The branch proposed onto (default: the repository's default branch). */
  base?: string;
  /** Where the manifests directory is inside the repository ('' for its root). */
  path: string;
}

export interface DriftSetup {
  policies: Record<string, DriftPolicy>;
  target?: ProposalTarget;
  kinds: readonly KindDefinition[];
  manifestsDir: string;
  /** The GitHub client (tests); default: one for target. */
  github?: () => Promise<GitHub>;
}

/** What the status page shows of the proposal. */
export interface ProposalView {
  pullRequest: { number: number; url: string; state: 'open' | 'closed' | 'merged' } | null;
  /** Objects it proposes now. */
  objects: number;
  /** Why the last run could not update it (a conflict with the default branch, GitHub's error). */
  problem: string | null;
  /** Drifted objects no manifest edit could adopt (kept, listed in the pull request). */
  skipped: { step: string; why: string }[];
}

export interface SettleInput {
  plan: Plan;
  desired: DesiredState;
  live: LiveState;
  options: PlanOptions;
  /** false in plan mode: nothing is written, so propose only reports. */
  writes: boolean;
  /**
   * The plan covers every managed scope. A scoped run sees only part of the drift: it keeps what it finds, and
   * leaves the proposal (made from all of it) as it is.
   */
  whole: boolean;
  log: Logger;
}

const MARKER = /<!-- docops:drift (sha256:[0-9a-f]{64}) -->/;

export class DriftKeeper {
  private client: Promise<GitHub> | undefined;
  /** Whether a proposal's state was read since the start (then, with no drift and none open, nothing is asked). */
  private checked = false;
  view: ProposalView = { pullRequest: null, objects: 0, problem: null, skipped: [] };

  constructor(private readonly setup: DriftSetup) {}

  /** The plan with the drift the config keeps held; proposals made, updated, or closed on the way. */
  async settle(input: SettleInput): Promise<Plan> {
    const { plan } = input;
    const found = driftToHold(plan, this.setup.policies, input.desired.documents ?? []);
    const held = new Map<string, KeptPolicy>(found.report.map((s) => [s.id, 'report']));
    const target = this.setup.target;
    if (!target || !input.writes || !input.whole) for (const s of found.propose) held.set(s.id, 'propose');
    else {
      const revert = await this.propose(input, found.propose);
      for (const s of found.propose) if (!revert) held.set(s.id, 'propose');
    }
    return holdSteps(plan, held);
  }

  /** Propose `steps` (none: close what is open); true when a closed proposal says to revert them. */
  private async propose(input: SettleInput, steps: Step[]): Promise<boolean> {
    const t = this.setup.target!;
    const r = repositoryOf(t.repository);
    if (steps.length === 0 && this.checked && this.view.pullRequest?.state !== 'open') return false;
    try {
      const gh = await this.github();
      const pull = await latestPull(gh, r, t.branch);
      this.checked = true;
      if (steps.length === 0) {
        const now = pull?.state === 'open' ? await this.close(gh, pull, input.log) : pull;
        this.view = { pullRequest: now ? viewOf(now) : null, objects: 0, problem: null, skipped: [] };
        return false;
      }
      const adoption = adoptDrift({
        kinds: this.setup.kinds,
        desired: input.desired,
        live: input.live,
        options: input.options,
        plan: input.plan,
        held: steps,
        manifestsDir: this.setup.manifestsDir,
      });
      const skipped = adoption.skipped.map((x) => ({ step: x.step.id, why: x.why }));
      const print = fingerprint(steps);
      if (pull && MARKER.exec(pull.body)?.[1] === print) {
        this.view = { pullRequest: viewOf(pull), objects: adoption.adopted.length, problem: null, skipped };
        if (pull.state === 'closed' && !pull.merged) {
          input.log.info(
            { pullRequest: pull.number, steps: steps.length },
            'drift proposal closed unmerged: reverting the drift',
          );
          return true;
        }
        return false; // open: proposed as it is; merged: the manifests catch up at their next pull
      }
      if (adoption.adopted.length === 0) {
        this.view = {
          pullRequest: pull ? viewOf(pull) : null,
          objects: 0,
          problem: 'no manifest edit could adopt the drift',
          skipped,
        };
        return false;
      }
      const written = await this.write(gh, input, adoption, print, pull);
      this.view = {
        pullRequest: written.pull ? viewOf(written.pull) : pull ? viewOf(pull) : null,
        objects: adoption.adopted.length,
        problem: written.problem ?? null,
        skipped,
      };
      return false;
    } catch (err) {
      // GitHub failed: the drift stays kept (never reverted for want of an answer), and the page says why.
      input.log.error({ err }, 'cannot propose the drift as a pull request');
      this.view = { ...this.view, problem: `GitHub: ${err instanceof Error ? err.message : String(err)}` };
      return false;
    }
  }

  private async write(
    gh: GitHub,
    input: SettleInput,
    adoption: Adoption,
    print: string,
    pull: PullRequest | undefined,
  ): Promise<{ pull?: PullRequest; problem?: string }> {
    const t = this.setup.target!;
    const r = repositoryOf(t.repository);
    const base = await baseBranch(gh, r, t.base);
    const head = await branchHead(gh, r, base);
    if (!head) return { problem: `the branch ${base} does not exist` };
    const files = new Map<string, string | null>();
    for (const [file, edits] of adoption.files) {
      const at = t.path === '' ? file : `${t.path}/${file}`;
      const edited = applyFileEdits((await readFile(gh, r, at, head)) ?? '', edits);
      if ('conflict' in edited) {
        input.log.warn(
          { file: at, conflict: edited.conflict },
          'drift proposal waits: the default branch changed what it edits',
        );
        return {
          problem: `conflict with ${base}: ${at}: ${edited.conflict}; the proposal waits until the manifests the daemon reads agree with ${base}`,
        };
      }
      files.set(at, edited.text === '' ? null : edited.text);
    }
    const body = proposalBody(input.plan, adoption, [...files.keys()], print);
    const sha = await commitFiles(
      gh,
      r,
      head,
      files,
      `${PROPOSAL_TITLE}\n\n${adoption.adopted.map((s) => s.id).join('\n')}`,
    );
    await moveBranch(gh, r, t.branch, sha, (await branchHead(gh, r, t.branch)) !== undefined);
    const next =
      pull?.state === 'open'
        ? await editPull(gh, r, pull.number, { title: PROPOSAL_TITLE, body })
        : await openPull(gh, r, { branch: t.branch, base, title: PROPOSAL_TITLE, body });
    input.log.info(
      { pullRequest: next.number, objects: adoption.adopted.length, files: files.size },
      pull?.state === 'open' ? 'drift proposal updated' : 'drift proposed as a pull request',
    );
    return { pull: next };
  }

  private async close(gh: GitHub, pull: PullRequest, log: Logger): Promise<PullRequest> {
    const t = this.setup.target!;
    const r = repositoryOf(t.repository);
    await comment(
      gh,
      r,
      pull.number,
      'The drift this pull request proposed is gone: the organization matches the manifests again (undone in the app, or the manifests changed). Closed by docops.',
    );
    const closed = await editPull(gh, r, pull.number, { state: 'closed' });
    await deleteBranch(gh, r, t.branch);
    log.info({ pullRequest: pull.number }, 'drift gone: proposal closed');
    return closed;
  }

  private github(): Promise<GitHub> {
    if (this.setup.github) return this.setup.github();
    const t = this.setup.target!;
    this.client ??= import('../../github/client.js').then((m) => m.createGitHub(t.apiUrl, t.token));
    return this.client;
  }

  /** A run whose plan held no step: any open proposal is for drift that is gone. */
  async quiet(input: Omit<SettleInput, 'plan'> & { plan: Plan }): Promise<void> {
    if (!this.setup.target || !input.writes || !input.whole) return;
    await this.propose(input, []);
  }
}

const viewOf = (p: PullRequest): NonNullable<ProposalView['pullRequest']> => ({
  number: p.number,
  url: p.url,
  state: p.merged ? 'merged' : p.state,
});

/** The drift a proposal stands for: each step's object and values (what the app made, what the manifests say). */
export function fingerprint(steps: readonly Step[]): string {
  const lines = steps.map((s) => JSON.stringify([s.id, s.before, s.after])).sort();
  return `sha256:${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
}
