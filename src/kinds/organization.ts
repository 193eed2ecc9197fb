/**
 * Organization: the settings of an existing organization. One PATCH with only the changed fields; never
 * created or deleted. Key = the org id (so a second Organization document for one org is a duplicate).
 */
import type { DesiredEntry, DiffContext, DiffResult, FetchContext, KindDefinition, LiveKindState, LiveObject } from '../core/kind.js';
import type { ManifestDocument } from '../manifests/document.js';
import { changedFields, isRecord, makeStep, manifestDoc, orgPath, pick, stepId } from './common.js';
import { loadSchema } from './schema.js';

const KIND = 'Organization';
const DEPTH = 0;

/** Settings docops manages, in the order they are compared and sent. */
export const ORG_FIELDS = ['title', 'emailDomains', 'hostname', 'defaultRole', 'defaultContent', 'logo', 'sso', 'ai', 'inviteLinks'] as const;

/** Live organization → manifest field names (logo is read back from urls.logo). */
export function orgFields(o: Record<string, unknown>): Record<string, unknown> {
  const urls = isRecord(o['urls']) ? o['urls'] : {};
  const content = o['defaultContent'];
  return {
    title: o['title'],
    emailDomains: Array.isArray(o['emailDomains']) ? o['emailDomains'] : [],
    hostname: o['hostname'] ?? null,
    defaultRole: o['defaultRole'] ?? null,
    defaultContent: isRecord(content) ? { type: content['type'], site: content['site'] } : null,
    logo: urls['logo'] ?? null,
    sso: o['sso'] ?? false,
    ai: o['ai'] ?? false,
    inviteLinks: o['inviteLinks'] ?? false,
  };
}

/** E-mail domains are a set: order and case do not matter. */
function normalise(field: string, value: unknown): unknown {
  if (field === 'emailDomains' && Array.isArray(value)) return value.map((d) => String(d).toLowerCase()).sort();
  return value;
}

function toDesired(doc: ManifestDocument): DesiredEntry[] {
  const org = doc.metadata.organization;
  return [{ kind: KIND, org, key: org, spec: pick(doc.spec, ORG_FIELDS), source: doc.pos(['spec']), doc }];
}

async function fetch(ctx: FetchContext, org: string, desired: DesiredEntry[]): Promise<LiveKindState> {
  if (desired.length === 0) return { objects: [] };
  const o = await ctx.get<Record<string, unknown>>(orgPath(org));
  return { objects: [{ kind: KIND, org, key: org, id: String(o['id'] ?? org), fields: orgFields(o) }] };
}

function diff(_ctx: DiffContext, org: string, desired: DesiredEntry[], live: LiveKindState): DiffResult {
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [] };
  const current = live.objects.find((o) => o.key === org);
  for (const entry of desired) {
    if (!current) {
      result.warnings.push({ kind: KIND, org, key: org, message: 'organization not found; it is never created by docops' });
      continue;
    }
    const c = changedFields(entry.spec, current.fields, ORG_FIELDS, normalise);
    if (c.changed.length === 0) continue;
    result.steps.push(
      makeStep({
        id: stepId(KIND, org, org, 'update'),
        action: 'update',
        phase: 'update',
        kind: KIND,
        org,
        key: org,
        wave: DEPTH,
        before: c.before,
        after: c.after,
        requests: [{ method: 'PATCH', path: orgPath(org), body: c.after }],
        entry,
      }),
    );
  }
  return result;
}

function exportDocs(org: string, live: LiveKindState): object[] {
  return live.objects.map((o: LiveObject) => {
    const spec: Record<string, unknown> = {};
    for (const f of ORG_FIELDS) {
      const v = o.fields[f];
      // Omit unset values and the false defaults of the optional switches.
      if (v === null || v === undefined) continue;
      if ((f === 'sso' || f === 'ai') && v === false) continue;
      spec[f] = v;
    }
    return manifestDoc(KIND, org, spec);
  });
}

export const organizationKind: KindDefinition = {
  kind: KIND,
  identity: 'the organization id in metadata.organization (one Organization document per organization)',
  schema: loadSchema('organization'),
  depth: DEPTH,
  toDesired,
  fetch,
  diff,
  export: exportDocs,
};
