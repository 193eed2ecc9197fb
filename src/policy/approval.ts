/**
 * What an approval is bound to: one checksum over the plan's steps, the manifests it was made from and the live
 * objects its steps touch (the saved-plan machinery: src/plan-file/digests.ts). Any change to any of them gives
 * another checksum, so an approval never applies a plan other than the one approved. Step sources are taken
 * relative to the manifests directory, so a plan made in CI (`-m manifests`) and the daemon's plan of the same
 * files and live state (an absolute directory) have one checksum.
 */
import path from 'node:path';
import type { Plan, Step } from '../model/plan.js';
import type { LiveState } from '../model/state.js';
import { canonicalJson, digest } from '../plan-file/canonical.js';
import { liveDigest, type ManifestsDigest } from '../plan-file/digests.js';

export const APPROVAL_VERSION = 1;

export interface ApprovalInput {
  plan: Plan;
  live: LiveState;
  manifests: ManifestsDigest;
  manifestsDir: string;
}

export function approvalChecksum(input: ApprovalInput): string {
  const base = path.resolve(input.manifestsDir);
  const steps = input.plan.steps.map((s) => relativeSource(s, base));
  return digest(
    canonicalJson({
      version: APPROVAL_VERSION,
      steps,
      manifests: input.manifests.checksum,
      live: liveDigest(input.plan, input.live).fingerprint,
    }),
  );
}

function relativeSource(step: Step, base: string): Step {
  if (!step.source) return step;
  const rel = path.relative(base, path.resolve(step.source.file)).split(path.sep).join('/');
  return { ...step, source: { ...step.source, file: rel } };
}

/** `sha256:` and 64 hex digits. */
export const CHECKSUM_PATTERN = /^sha256:[0-9a-f]{64}$/;
