/**
 * Going live and visitor sign-in of one site (issue 29).
 *
 * `published`: a publish (`POST …/publish`, a SitePublication create) runs in the update phase after everything else
 * of the site, so visitors meet the finished structure; an answer with a checkout session (the organization's plan
 * needs an upgrade) fails the step, saying so. An unpublish (`POST …/unpublish`) is a SitePublication delete: the
 * safety gate counts it, the journal records it.
 *
 * `publishingAuth`: one `PATCH …/publishing/auth` with the written fields that differ (the API requires `backend`:
 * the written one, else the one apply reads right before sending — never the plan's read, which another actor's
 * change may have outdated: MergeSpec `pick`). The private key cannot be written — the API only generates a new one — so a
 * written key is compared by fingerprint and a different live key blocks the site rather than be left looking in
 * sync; plans show fingerprints only.
 */
import { changedFields, sameValue } from '../common.js';
import { PUBLICATION_KIND, type LivePublishingAuth, type PublishingAuthSpec } from './live-model.js';
import { SITE_KIND, WAVE, type SiteFields } from './model.js';
import { base, block, push, type SiteScope } from './scope.js';

export function diffPublished(scope: SiteScope, have: SiteFields | undefined): void {
  const want = scope.spec.published;
  const now = have?.published ?? false;
  if (want === undefined || want === now) return;
  if (want) {
    push(scope, {
      kind: PUBLICATION_KIND,
      key: scope.title,
      suffix: 'publish',
      action: 'create',
      phase: 'update',
      wave: WAVE.publish,
      before: { published: false },
      after: { published: true },
      requests: [
        {
          method: 'POST',
          path: `${base(scope)}/publish`,
          // Publishing twice leaves it published.
          idempotent: true,
          refusedWhen: [
            {
              field: 'type',
              value: 'checkout',
              message: `site "${scope.title}" was not published: the organization's plan needs an upgrade to publish it (the API answered with a checkout session); upgrade the plan in the app, then apply again`,
            },
          ],
        },
      ],
      at: ['spec', 'published'],
      note: 'publish: visitors reach the site',
    });
    return;
  }
  push(scope, {
    kind: PUBLICATION_KIND,
    key: scope.liveTitle,
    suffix: 'unpublish',
    action: 'delete',
    phase: 'delete',
    wave: WAVE.unpublish,
    before: { published: true },
    after: { published: false },
    requests: [{ method: 'POST', path: `${base(scope)}/unpublish`, idempotent: true }],
    at: ['spec', 'published'],
    note: 'unpublish: visitors no longer reach the site (its content and settings stay)',
  });
}

const AUTH_FIELDS = ['backend', 'fallbackURL', 'logoutURL'] as const;

/** What a new site's settings are (a custom backend, no URLs; its key is generated with it). */
const NEW_SITE_AUTH: Omit<LivePublishingAuth, 'privateKey'> = { backend: 'custom', fallbackURL: null, logoutURL: null };

export function diffPublishingAuth(scope: SiteScope): void {
  const written = scope.spec.publishingAuth;
  if (!written) return;
  const live = scope.isNew ? undefined : scope.live.publishingAuth;
  if (!scope.isNew && !live) throw new Error(`internal: publishing auth of site ${scope.siteId} was not fetched`);
  if (blockKey(scope, written, live)) return;
  const have = live ?? NEW_SITE_AUTH;
  const c = changedFields(written, have, AUTH_FIELDS);
  if (c.changed.length === 0) return;
  push(scope, {
    kind: SITE_KIND,
    key: scope.title,
    suffix: 'publishing-auth',
    action: 'update',
    phase: 'update',
    wave: WAVE.site,
    before: { publishingAuth: c.before },
    after: { publishingAuth: c.after },
    requests: [
      {
        method: 'PATCH',
        path: `${base(scope)}/publishing/auth`,
        body: written.backend !== undefined ? { backend: written.backend, ...c.after } : c.after,
        ...(written.backend === undefined ? { merge: { pick: ['backend'] } } : {}),
      },
    ],
    at: ['spec', 'publishingAuth'],
  });
}

/** A written key the site does not have: no request can make them agree. True when the site is blocked. */
function blockKey(scope: SiteScope, written: PublishingAuthSpec, live: LivePublishingAuth | undefined): boolean {
  const key = written.privateKey;
  if (!key) return false;
  const at = ['spec', 'publishingAuth', 'privateKey'];
  if (!live) {
    block(
      scope,
      at,
      'a new site gets a private key the platform generates, which no manifest can know yet: create the site without privateKey, then write the key it was given',
    );
    return true;
  }
  if (sameValue(key.fingerprint, live.privateKey)) return false;
  block(
    scope,
    at,
    `the site's private key (${live.privateKey}) is not the one written (${key.fingerprint}): the API cannot set a key, only generate a new one; ` +
      'write the key the site has (your sign-in backend must hold the same), or generate a new one in the app and write that',
  );
  return true;
}
