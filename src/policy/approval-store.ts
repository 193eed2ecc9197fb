/**
 * The daemon's approvals on disk (docs/policy.md, "Approvals"): `approvals.json` in the journal directory, the
 * volume that outlives a restart and that every replica mounts (deploy/: one ReadWriteMany claim for the HA pair
 * and the shards), so a restarted daemon and the replica that takes the lease over read what the last leader took.
 *
 * The file is trusted only as far as it proves itself: it carries an HMAC-SHA256 over its content and its own path,
 * keyed by the secrets that take approvals (the approver token, the GitHub token), which the volume does not
 * hold. A file that is not valid JSON, of another format version, a symbolic link, too large, of a bad shape, or
 * whose MAC does not verify (edited by hand, copied from another directory, written with another token) is refused
 * whole: nothing in it approves anything, the refusal is logged, and the plan waits again. What it holds approves
 * only the plan with exactly its checksum (approval.ts), whoever wrote it.
 *
 * Written atomically: a temporary file created exclusively in the directory (never through a link), fsync'd, and
 * renamed over the file (a rename replaces a link instead of following it), then the directory fsync'd.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { canonicalJson } from '../plan-file/canonical.js';
import { CHECKSUM_PATTERN } from './approval.js';
import type { Approval, WaitingPlan } from './approvals.js';
import { isRecord } from '../model/json.js';

export const APPROVALS_FILE = 'approvals.json';
const FORMAT = 'docops-approvals';
const VERSION = 1;
/** Far above what the book keeps (a waiting plan and 20 approvals): a larger file is not one docops wrote. */
const MAX_BYTES = 1024 * 1024;

/** What the book keeps (approvals.ts): the plan that waits, the approvals given and not yet used, the last used. */
export interface ApprovalState {
  waiting?: WaitingPlan;
  given: Approval[];
  applied?: Approval;
}

export type StoreRead = { state: ApprovalState } | { refused: string };

export class ApprovalStore {
  readonly file: string;
  private readonly key: Buffer;

  /** `secrets`: those that take approvals (at least one); rotating one makes the kept approvals void. */
  constructor(dir: string, secrets: readonly string[]) {
    this.file = path.resolve(dir, APPROVALS_FILE);
    this.key = Buffer.from(hkdfSync('sha256', secrets.join('\u0000'), 'docops approvals', `${FORMAT} ${VERSION}`, 32));
  }

  /** The state on disk: empty when there is no file yet; `refused` (and why) when the file cannot be trusted. */
  async read(): Promise<StoreRead> {
    let text: string;
    try {
      const fh = await open(this.file, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        const { size } = await fh.stat();
        if (size > MAX_BYTES) return { refused: `it is larger than ${MAX_BYTES} bytes` };
        text = await fh.readFile('utf8');
      } finally {
        await fh.close();
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { state: { given: [] } };
      return { refused: code === 'ELOOP' ? 'it is a symbolic link' : `it cannot be read (${code ?? 'error'})` };
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return { refused: 'it is not JSON' };
    }
    if (!isRecord(data) || data['format'] !== FORMAT) return { refused: 'it is not a docops approvals file' };
    if (data['version'] !== VERSION) return { refused: `its version is not ${VERSION}` };
    const mac = data['mac'];
    const expected = this.mac(data['state']);
    if (
      typeof mac !== 'string' ||
      mac.length !== expected.length ||
      !timingSafeEqual(Buffer.from(mac), Buffer.from(expected))
    )
      return {
        refused:
          'its MAC does not verify (edited, copied from another directory, or written with another approver or GitHub token)',
      };
    const state = asState(data['state']);
    return state ? { state } : { refused: 'its content has a bad shape' };
  }

  /** Replace the file with `state`, atomically. */
  async write(state: ApprovalState): Promise<void> {
    const dir = path.dirname(this.file);
    await mkdir(dir, { recursive: true });
    const body = JSON.stringify({ format: FORMAT, version: VERSION, state, mac: this.mac(state) }, null, 2) + '\n';
    const tmp = path.join(dir, `.${APPROVALS_FILE}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const fh = await open(tmp, 'wx', 0o600);
      try {
        await fh.writeFile(body, 'utf8');
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, this.file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    await syncDirectory(dir);
  }

  private mac(state: unknown): string {
    const h = createHmac('sha256', this.key).update(canonicalJson({ file: this.file, state: state ?? null }));
    return `hmac-sha256:${h.digest('hex')}`;
  }
}

/** Make the rename durable; a file system that cannot fsync a directory (some network ones) is left as it is. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // best effort: the file itself was fsync'd before the rename
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';

function asApproval(v: unknown): Approval | undefined {
  if (!isRecord(v) || !isString(v['checksum']) || !CHECKSUM_PATTERN.test(v['checksum'])) return undefined;
  if (!isString(v['by']) || !isString(v['at']) || (v['url'] !== undefined && !isString(v['url']))) return undefined;
  return { checksum: v['checksum'], by: v['by'], at: v['at'], ...(isString(v['url']) ? { url: v['url'] } : {}) };
}

function asRule(v: unknown): WaitingPlan['rules'][number] | undefined {
  if (!isRecord(v) || !isString(v['rule']) || !isString(v['message']) || !Array.isArray(v['objects'])) return undefined;
  const objects = v['objects'];
  return objects.every(isString) ? { rule: v['rule'], message: v['message'], objects } : undefined;
}

function asWaiting(v: unknown): WaitingPlan | undefined {
  if (!isRecord(v) || !isString(v['checksum']) || !CHECKSUM_PATTERN.test(v['checksum'])) return undefined;
  if (!isString(v['since']) || typeof v['run'] !== 'number' || !Array.isArray(v['rules'])) return undefined;
  const rules = v['rules'].map(asRule);
  const approvers = v['approvers'];
  const team = isRecord(approvers) ? approvers['githubTeam'] : undefined;
  if (rules.some((r) => r === undefined) || (approvers !== undefined && !isString(team))) return undefined;
  return {
    checksum: v['checksum'],
    since: v['since'],
    run: v['run'],
    rules: rules.filter((r) => r !== undefined),
    ...(isString(team) ? { approvers: { githubTeam: team } } : {}),
  };
}

function asState(v: unknown): ApprovalState | undefined {
  if (!isRecord(v) || !Array.isArray(v['given'])) return undefined;
  const read = v['given'].map(asApproval);
  const given = read.filter((a) => a !== undefined);
  if (given.length !== read.length) return undefined;
  const waiting = v['waiting'] === undefined ? undefined : asWaiting(v['waiting']);
  const applied = v['applied'] === undefined ? undefined : asApproval(v['applied']);
  if ((v['waiting'] !== undefined && !waiting) || (v['applied'] !== undefined && !applied)) return undefined;
  return { given, ...(waiting ? { waiting } : {}), ...(applied ? { applied } : {}) };
}
