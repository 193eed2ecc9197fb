/**
 * A site's Git Sync state (the official spec's `Site.gitSync`, schema GitSyncState): whether a repository owns the
 * site's structure, which one, and its last operation. The real platform sets it when someone connects Git Sync in
 * the web app; the sandbox takes it from its admin surface (`PUT /_sandbox/sites/{siteId}/git-sync`, a JSON
 * GitSyncState or null to disconnect) and answers it on every Site. Structure writes to such a site are accepted,
 * as neither reference says they are refused (docs/dev/api-differences.md).
 */
import { HttpError } from './http.js';
import { sites } from './site-records.js';
import type { SandboxStore } from './store.js';
import { nullable, object, oneOf, string, type Validator } from './validate.js';

const timestamp = string({ pattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/ });

/** GitSyncState, as the official spec declares it (unknown fields refused, like every sandbox body). */
const gitSyncState = object(
  {
    repoName: string(),
    installationStatus: oneOf(['unauthenticated', 'active', 'pending']),
    installationProvider: oneOf(['github', 'gitlab', 'github-legacy']),
    integration: string(),
    installationId: string({ min: 1 }),
    parentInstallationId: string(),
    url: string(),
    operation: object(
      {
        state: oneOf(['running', 'failure', 'success', 'timeout']),
        direction: oneOf(['export', 'import']),
        startedAt: timestamp,
        endedAt: timestamp,
        error: string(),
        errorAction: object({ label: string(), url: string({ format: 'uri' }) }, ['label', 'url']),
      },
      ['state', 'direction', 'startedAt'],
    ),
    operationTimeout: ((v, path) => {
      if (typeof v !== 'number' || !Number.isInteger(v)) throw new HttpError(400, `${path}: must be an integer`);
      return v;
    }) as Validator<number>,
    updatedAt: timestamp,
  },
  ['installationId', 'installationProvider', 'installationStatus'],
);

export type GitSyncState = ReturnType<typeof gitSyncState>;

/** Set (or, with null, clear) the Git Sync state of a site; 404 when the site does not exist. */
export function setSiteGitSync(store: SandboxStore, siteId: string, body: unknown): GitSyncState | null {
  const site = sites(store).get(siteId);
  if (!site) throw new HttpError(404, `site "${siteId}" not found`);
  const state = nullable(gitSyncState)(body, 'body');
  if (state === null) delete site.gitSync;
  else site.gitSync = state;
  return state;
}
