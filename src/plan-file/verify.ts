/**
 * Whether a saved plan still fits: the steps are the ones written (plan checksum), the manifests are the ones
 * it was made from (manifests checksum), and the live objects it touches are as they were (fingerprint).
 * Each mismatch is a StalePlanError that says what changed.
 */
import { StalePlanError } from '../model/errors.js';
import type { LiveState } from '../model/state.js';
import { changedFiles, changedObjects, liveDigest, planChecksum, type ManifestsDigest } from './digests.js';
import type { SavedPlan } from './saved-plan.js';

const MAX_NAMED = 10;

const list = (names: readonly string[]): string =>
  names.length <= MAX_NAMED
    ? names.join(', ')
    : `${names.slice(0, MAX_NAMED).join(', ')} and ${names.length - MAX_NAMED} more`;

/** Offline checks: the plan file itself, then the manifests. */
export function verifyOffline(saved: SavedPlan, manifests: ManifestsDigest): void {
  if (planChecksum(saved.plan) !== saved.planChecksum) {
    throw new StalePlanError(
      'refusing the saved plan: plan file was edited: checksum mismatch (its steps no longer match planChecksum)',
    );
  }
  if (manifests.checksum !== saved.manifestsChecksum) {
    const files = changedFiles(saved.manifestFiles, manifests.files);
    const named = files.length > 0 ? ` (files: ${list(files)})` : '';
    throw new StalePlanError(
      `refusing the saved plan: manifests changed since the plan was made${named}. Run docops plan again.`,
    );
  }
}

/** Online check: the live objects the plan's steps touch, fetched again now. */
export function verifyLive(saved: SavedPlan, live: LiveState): void {
  const now = liveDigest(saved.plan, live);
  if (now.fingerprint === saved.liveFingerprint) return;
  const objects = changedObjects(saved.liveObjects, now.objects);
  const named = objects.length > 0 ? ` for ${list(objects)}` : '';
  throw new StalePlanError(
    `refusing the saved plan: live state changed${named} since the plan was made. Run docops plan again.`,
  );
}
