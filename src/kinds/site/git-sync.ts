/**
 * Sites whose structure Git Sync owns (docs/kinds.md, "Sites under Git Sync"). A site's `gitSync` (the official
 * spec's GitSyncState, read from the sites list docops already fetches: no extra request) says a repository's
 * `gitbook-docs.yaml` owns its sections, section groups and site spaces, and GitBook writes that file back. docops
 * stands aside: it never reads nor writes such a site's structure, shows it as owned by Git Sync, and blocks the
 * structure a manifest writes for it (never a silent tug of war); the site's other settings are still managed.
 * A manifest may say `gitSync: {repository: …}` to record that (export writes it): validate warns when the same
 * manifest writes structure, and plan warns when the site is not synced, or from another repository.
 */
import type { DesiredEntry, DiffResult, Report } from '../../model/kind.js';
import type { OwnedObject } from '../../model/plan.js';
import { isRecord } from '../common.js';
import type { GitSyncInfo, SiteSpec } from './model.js';

/** The spec fields that write a site's structure, which Git Sync owns on a synced site. */
export const STRUCTURE_FIELDS = ['sections', 'sectionGroups', 'spaces', 'defaultSection', 'defaultSiteSpace'] as const;

export const OWNED_PARTS = 'sections, section groups and site spaces';

/** Site id → its Git Sync, for the listed sites that have one (an installation id, provider and status). */
export function gitSyncBySite(items: readonly unknown[]): Record<string, GitSyncInfo> {
  const out: Record<string, GitSyncInfo> = {};
  for (const s of items) {
    if (!isRecord(s) || typeof s['id'] !== 'string' || !isRecord(s['gitSync'])) continue;
    const g = s['gitSync'];
    if (
      typeof g['installationId'] !== 'string' ||
      typeof g['installationProvider'] !== 'string' ||
      typeof g['installationStatus'] !== 'string'
    )
      continue;
    out[s['id']] = {
      provider: g['installationProvider'],
      status: g['installationStatus'],
      ...(typeof g['repoName'] === 'string' && g['repoName'] !== '' ? { repository: g['repoName'] } : {}),
    };
  }
  return out;
}

/** `Git Sync (repository acme/docs)`, with the provider when the repository is unknown and the status unless active. */
export function ownerLabel(g: GitSyncInfo): string {
  const parts = [
    g.repository !== undefined ? `repository ${g.repository}` : `${g.provider}, repository not named`,
    g.status === 'active' ? undefined : g.status,
  ];
  return `Git Sync (${parts.filter(Boolean).join(', ')})`;
}

/** The structure fields a spec writes. */
export function writtenStructure(spec: SiteSpec): (typeof STRUCTURE_FIELDS)[number][] {
  return STRUCTURE_FIELDS.filter((f) => spec[f] !== undefined);
}

/** The spec without its structure: what docops still manages of a synced site. */
export function withoutStructure(spec: SiteSpec): SiteSpec {
  const out = { ...spec };
  for (const f of STRUCTURE_FIELDS) delete out[f];
  return out;
}

/**
 * Plan one synced site: list its structure as owned, block every structure field its manifest writes (at that
 * field), warn when the manifest names another repository; returns the spec docops still plans.
 */
export function standAside(
  result: DiffResult,
  entry: DesiredEntry<SiteSpec>,
  siteId: string,
  g: GitSyncInfo,
): SiteSpec {
  const owner = ownerLabel(g);
  const owned: OwnedObject = { kind: entry.kind, org: entry.org, key: entry.key, id: siteId, what: OWNED_PARTS, owner };
  (result.owned ??= []).push(owned);
  for (const f of writtenStructure(entry.spec)) {
    const at = entry.doc.pos(['spec', f]);
    result.blocked.push({
      kind: entry.kind,
      org: entry.org,
      key: entry.key,
      message: `${f}: the site's ${OWNED_PARTS} are owned by ${owner}; docops writes none of them. Change them in the repository, and remove ${f} from this manifest (the site's other settings are still managed)`,
      source: { file: at.file, line: at.line, column: at.column },
    });
  }
  const declared = entry.spec.gitSync?.repository;
  if (declared !== undefined && g.repository !== undefined && declared !== g.repository) {
    result.warnings.push({
      kind: entry.kind,
      org: entry.org,
      key: entry.key,
      message: `gitSync.repository says ${declared}, but the site is synced from ${g.repository}`,
    });
  }
  return withoutStructure(entry.spec);
}

/** A manifest that says Git Sync owns its site's structure while the site has no Git Sync: its structure is not written, so nothing is managed. */
export function warnNotSynced(result: DiffResult, entry: DesiredEntry<SiteSpec>): void {
  if (entry.spec.gitSync === undefined) return;
  result.warnings.push({
    kind: entry.kind,
    org: entry.org,
    key: entry.key,
    message:
      "the manifest says Git Sync owns this site's structure (gitSync), but the site has no Git Sync connected: its structure is left as it is",
  });
}

/** Validate (offline): a manifest that says Git Sync owns its structure and also writes structure gets a warning at each such field. */
export function warnStructureUnderGitSync(entries: readonly DesiredEntry<SiteSpec>[], warn: Report | undefined): void {
  if (!warn) return;
  for (const e of entries) {
    if (e.spec.gitSync === undefined) continue;
    const from = e.spec.gitSync.repository !== undefined ? ` (repository ${e.spec.gitSync.repository})` : '';
    for (const f of writtenStructure(e.spec)) {
      warn(
        e.doc.pos(['spec', f]),
        `${f}: this site's ${OWNED_PARTS} are owned by Git Sync${from}, as gitSync says: docops writes none of them, and plan blocks this field while Git Sync is connected`,
      );
    }
  }
}

/** What export writes for a synced site. */
export function exportedGitSync(g: GitSyncInfo | undefined): { gitSync?: { repository?: string } } {
  if (!g) return {};
  return { gitSync: g.repository !== undefined ? { repository: g.repository } : {} };
}
