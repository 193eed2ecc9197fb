/**
 * The OpenAPISpec diff (pure). A spec differs from its manifest when the source the platform last published is
 * not the manifest's — a URL source by `sourceURL`, a text or file source by the digest of the latest version's
 * raw text — or when its last processing failed (whatever it was given was not published). A difference is one
 * request that publishes a new version: POST on create (recovered by slug), PUT otherwise (recovered by a changed
 * `lastVersion`, never re-sent blindly: each processed PUT is a version), each followed by a
 * settle read that fails the step when processing ends in an error. Nothing differs ⇒ nothing is sent.
 */
import type { DesiredEntry, DiffContext, DiffResult } from '../../model/kind.js';
import type { CascadeObject, RecoverSpec, SettleSpec } from '../../model/plan.js';
import { blockEntry, makeStep, stepId } from '../common.js';
import { unmatchedLive } from '../unmatched.js';
import {
  OPENAPI_DEPTH,
  OPENAPI_KIND,
  OPENAPI_VERSION_KIND,
  shortDigest,
  specPath,
  specsPath,
  type OpenApiFields,
  type OpenApiObject,
  type OpenApiSpecSpec,
  type OpenApiState,
  type SpecSource,
} from './model.js';

/** Settle reads after a write: with SETTLE_DELAYS_MS about two minutes of processing before the step gives up. */
export const SETTLE_READS = 20;

type Sendable = Exclude<SpecSource, { type: 'unread' }>;

/** The official `OpenAPISpecSource` for a manifest source. */
const apiSource = (s: Sendable): { url: string } | { text: string } =>
  s.type === 'url' ? { url: s.url } : { text: s.text };

/**
 * A printed JSON plan shows a text source by its digest (RequestSpec.masked), like the step's before/after: a
 * spec file can be large. The saved plan file keeps the text, so it applies exactly.
 */
const masked = (s: Sendable): { masked?: Record<string, string> } =>
  s.type === 'url'
    ? {}
    : { masked: { source: `{text: ${shortDigest(s.sha256)}${s.file !== undefined ? ` of ${s.file}` : ''}}` } };

/** The manifest's source as a plan shows it: the URL, or the file (if any) and the digest — never the text. */
function shownDesired(s: Sendable): Record<string, unknown> {
  if (s.type === 'url') return { url: s.url };
  return { ...(s.file !== undefined ? { file: s.file } : {}), sha256: shortDigest(s.sha256) };
}

/** The live spec's published source as a plan shows it, beside the manifest's (`file` repeated so only the digest reads as changed). */
function shownLive(f: OpenApiFields, desired: Sendable): unknown {
  if (f.sourceURL !== null) return { url: f.sourceURL };
  if (f.lastVersion === null) return null;
  if (typeof f.latestSha256 === 'string')
    return {
      ...(desired.type === 'text' && desired.file !== undefined ? { file: desired.file } : {}),
      sha256: shortDigest(f.latestSha256),
    };
  return f.latestSha256 === null ? `version ${f.lastVersion} (no raw text)` : `text (version ${f.lastVersion})`;
}

/** Whether the platform's published source is the manifest's (a failed last processing never is). */
function sameSource(desired: Sendable, f: OpenApiFields): boolean {
  if (f.lastProcessErrorCode !== null || f.lastVersion === null) return false;
  if (desired.type === 'url') return f.sourceURL === desired.url;
  return f.sourceURL === null && f.latestSha256 === desired.sha256;
}

const MAX_NOTE_ERROR = 200;
/** A server's message on one line, clipped (parser messages quote the spec over several lines). */
const clip = (s: string): string => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_NOTE_ERROR ? `${flat.slice(0, MAX_NOTE_ERROR - 1)}…` : flat;
};

/** The live spec's versions and processing, read-only: shown beside each of its steps. */
export function liveStatus(f: OpenApiFields): string {
  const latest = f.lastVersion === null ? 'no version yet' : `latest version ${f.lastVersion}`;
  const failed =
    f.lastProcessErrorCode === null
      ? ''
      : `; last processing failed: ${f.lastProcessErrorCode}${f.lastProcessError !== null ? ` (${clip(f.lastProcessError)})` : ''}`;
  return `${latest}, processing ${f.processingState}${failed}`;
}

/** Wait for processing and fail the step when it ends in an error (RequestSpec.settle). */
export const settleOf = (org: string, slug: string): SettleSpec => ({
  path: specPath(org, slug),
  until: [{ field: 'processingState', value: 'complete' }],
  failWhen: [
    {
      field: 'lastProcessErrorCode',
      message: `processing the new source of OpenAPI spec ${slug} failed`,
      detail: 'lastProcessedErrors.0.message',
    },
  ],
  reads: SETTLE_READS,
});

function createStep(
  org: string,
  entry: DesiredEntry<OpenApiSpecSpec>,
  source: Sendable,
  live: readonly OpenApiObject[],
) {
  const slug = entry.key;
  const exclude = live.filter((o) => o.key === slug).map((o) => o.id);
  return makeStep({
    id: stepId(OPENAPI_KIND, org, slug, 'create'),
    action: 'create',
    phase: 'create',
    kind: OPENAPI_KIND,
    org,
    key: slug,
    wave: OPENAPI_DEPTH,
    before: null,
    after: { slug, source: shownDesired(source) },
    requests: [
      {
        method: 'POST',
        path: specsPath(org),
        body: { slug, source: apiSource(source) },
        recover: { match: [{ field: 'slug', body: '/slug' }], ...(exclude.length > 0 ? { exclude } : {}) },
        settle: settleOf(org, slug),
        ...masked(source),
      },
    ],
    entry,
    note: 'publishes its first version',
  });
}

/**
 * A PUT publishes a version each time it is processed, so it is not sent again blindly: after a 5xx or a reset
 * apply lists the specs, and the spec whose `lastVersion` is no longer the one of the plan's live read was published
 * since (found: the step goes on to wait for its processing); the same one means the PUT did not happen (sent
 * again). Not `updatedAt`: another actor's change of the spec (its visibility) moves it too, and the PUT that
 * never happened would be taken as done.
 */
function publishRecover(org: string, current: OpenApiObject): { recover: RecoverSpec } {
  return {
    recover: {
      path: specsPath(org),
      match: [
        { field: 'slug', value: current.key },
        { field: 'lastVersion', value: current.fields.lastVersion, not: true },
      ],
    },
  };
}

function updateStep(org: string, entry: DesiredEntry<OpenApiSpecSpec>, source: Sendable, current: OpenApiObject) {
  const f = current.fields;
  const before: Record<string, unknown> = { source: shownLive(f, source) };
  const after: Record<string, unknown> = { source: shownDesired(source) };
  if (f.lastProcessErrorCode !== null) {
    before['lastProcessErrorCode'] = f.lastProcessErrorCode;
    after['lastProcessErrorCode'] = null;
  }
  return makeStep({
    id: stepId(OPENAPI_KIND, org, entry.key, 'update'),
    action: 'update',
    phase: 'update',
    kind: OPENAPI_KIND,
    org,
    key: entry.key,
    wave: OPENAPI_DEPTH,
    before,
    after,
    requests: [
      {
        method: 'PUT',
        path: specPath(org, entry.key),
        body: { source: apiSource(source) },
        ...publishRecover(org, current),
        settle: settleOf(org, entry.key),
        ...masked(source),
      },
    ],
    entry,
    note: `publishes a new version; now: ${liveStatus(f)}`,
  });
}

export function diffSpecs(
  ctx: DiffContext,
  org: string,
  entries: DesiredEntry<OpenApiSpecSpec>[],
  live: OpenApiState,
): DiffResult {
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [], blocked: [] };
  const bySlug = new Map(live.objects.map((o) => [o.key, o]));
  const described = new Set<string>();
  for (const entry of entries) {
    described.add(entry.key);
    const source = entry.spec.source;
    if (source === undefined || source.type === 'unread') {
      // The loader reads every `{file}` of a manifest; only a probe document can get here.
      blockEntry(result, entry, entry.doc.pos(['spec', 'source']), 'its source file was not read');
      continue;
    }
    const current = bySlug.get(entry.key);
    if (!current) {
      result.steps.push(createStep(org, entry, source, live.objects));
      continue;
    }
    const f = current.fields;
    if (f.processingState !== 'complete') {
      // The platform is processing a source: its outcome decides whether anything differs, and a second write
      // while it runs could publish twice. Said, not sent: a warning when what is published already is the
      // manifest's source, else the entry is blocked (the plan cannot reach it now).
      const message = `the platform is still processing a source of this spec (${liveStatus(f)}): docops sends no other while it runs; plan again once it completes`;
      if (sameSource(source, { ...f, lastProcessErrorCode: null }))
        result.warnings.push({ kind: OPENAPI_KIND, org, key: entry.key, message });
      else blockEntry(result, entry, entry.doc.pos(['spec', 'source']), message);
      continue;
    }
    if (sameSource(source, f)) continue;
    result.steps.push(updateStep(org, entry, source, current));
  }

  const unmatched = live.objects.filter((o) => !described.has(o.key));
  unmatchedLive(result, {
    kind: OPENAPI_KIND,
    org,
    prune: ctx.prune(OPENAPI_KIND, org),
    objects: unmatched,
    key: (o) => o.key,
    wave: () => OPENAPI_DEPTH,
    path: (o) => specPath(org, o.key),
    before: (o) => ({ slug: o.key, ...(o.fields.sourceURL !== null ? { source: { url: o.fields.sourceURL } } : {}) }),
    note: (o) => liveStatus(o.fields),
    cascades: (o) => versionCascades(org, o, live.aux?.versions?.[o.id]),
  });
  return result;
}

/** The versions a spec's delete takes along (read only under prune, for the specs it would delete). */
export function versionCascades(
  org: string,
  o: OpenApiObject,
  versions: readonly string[] | undefined,
): CascadeObject[] {
  return (versions ?? []).map((id) => ({ kind: OPENAPI_VERSION_KIND, org, key: `${o.key}/${id}`, id }));
}
