/**
 * Organization: the settings of an existing organization. One PATCH with only the changed fields; never
 * created or deleted. Key = the org id (so a second Organization document for one org is a duplicate).
 * `defaultContent.site` may name a Site manifest by title: the kind is diffed after Site (`needs`), so the
 * title resolves to the site's id, or to a ref to the step creating it (the PATCH then depends on that step;
 * it runs in the update phase, after every create). Else it names a live site by title, then by id. A site
 * that is none of these (a typo, a deleted site, a Site manifest that is itself blocked) blocks the document:
 * the API refuses a default content naming no site, and the other settings are not applied without it.
 */
import { ConflictError } from '../model/errors.js';
import type {
  DesiredEntry,
  DiffContext,
  DiffResult,
  FetchContext,
  KindDefinition,
  LiveKindState,
  LiveObject,
} from '../model/kind.js';
import { isRef } from '../model/refs.js';
import type { RequestSpec } from '../model/plan.js';
import type { ManifestDocument } from '../model/document.js';
import {
  blockEntry,
  changedFields,
  isRecord,
  makeStep,
  manifestDoc,
  orgPath,
  refSteps,
  stepId,
  type CrossValidate,
} from './common.js';
import { memberIds } from './access/fetch.js';
import { membersListPath } from './access/model.js';
import { organizationSchema, type OrganizationManifestSpec } from './generated/organization.js';
import { mustExistLive, namesManifest } from './manifest-refs.js';
import {
  byId,
  canonicalMergeRules,
  liveMergeRules,
  manifestMergeRules,
  MERGE_RULES_SET,
  mergeRulesDelta,
  readMergeRules,
  resolveMergeRules,
  shownMergeRules,
  unknownMergeRules,
  writesMergeRules,
  type ApiMergeRules,
} from './merge-rules.js';
import { sitesPath } from './site/model.js';
import { actionOf } from './informer-common.js';

const KIND = 'Organization';
const DEPTH = 0;

/**
 * The settings a document writes, as written: the schema checks their shapes, and the diff only compares them
 * with the live values and sends them as JSON (resolving `defaultContent.site` to a site id).
 */
export type OrgSpec = OrganizationManifestSpec;

/** Settings docops manages, in the order they are compared and sent: every field of the schema. */
export const ORG_FIELDS = [
  'title',
  'emailDomains',
  'hostname',
  'defaultRole',
  'defaultContent',
  'logo',
  'sso',
  'ai',
  'inviteLinks',
  'mergeRules',
] as const satisfies readonly (keyof OrgSpec)[];

export type OrgField = (typeof ORG_FIELDS)[number];
// A field added to the schema must be listed above (and read back in orgFields): this fails to compile until it is.
const _everyFieldListed: [Exclude<keyof OrgSpec, OrgField>] extends [never] ? true : never = true;
void _everyFieldListed;
/** The live settings under manifest field names. */
export type OrgFields = Record<OrgField, unknown>;
export type OrgObject = LiveObject<OrgFields>;

/**
 * What fetch keeps beside the organization: its sites, when a document names one as its default content; its
 * members (e-mail → user id), when a document writes merge rules.
 */
interface OrgAux {
  sites: LiveSiteRef[];
  members?: Record<string, string>;
}

type OrgState = LiveKindState<OrgObject, OrgAux>;

/** Live organization → manifest field names (logo is read back from urls.logo). */
export function orgFields(o: Record<string, unknown>): OrgFields {
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
    mergeRules: liveMergeRules(o['mergeRules']) ?? unknownMergeRules(o['mergeRules']) ?? { type: 'none' },
  };
}

/** E-mail domains are a set: order and case do not matter. */
/**
 * The PATCH of the changed fields. E-mail domains and merge rules are sets the API takes only whole: sent as a delta
 * over what apply reads right before the PATCH (MergeSpec `sets`), so an item someone added since the plan stays,
 * and the PATCH still carries the changed fields only (`pick: []`).
 */
function orgPatch(org: string, before: Record<string, unknown>, after: Record<string, unknown>): RequestSpec {
  const body: Record<string, unknown> = { ...after };
  const sets: string[] = [];
  if ('emailDomains' in after) {
    const lower = (v: unknown): string[] => (Array.isArray(v) ? v.map((d) => String(d).toLowerCase()) : []);
    const was = lower(before['emailDomains']);
    const want = lower(after['emailDomains']);
    body['emailDomains'] = { add: want.filter((d) => !was.includes(d)), remove: was.filter((d) => !want.includes(d)) };
    sets.push('/emailDomains');
  }
  const rules = 'mergeRules' in after ? liveMergeRules(after['mergeRules']) : null;
  const delta = rules ? mergeRulesDelta(before['mergeRules'], rules) : undefined;
  if (delta) {
    body['mergeRules'] = delta;
    sets.push(MERGE_RULES_SET);
  }
  if (sets.length === 0) return { method: 'PATCH', path: orgPath(org), body: after };
  return { method: 'PATCH', path: orgPath(org), body, merge: { pick: [], sets } };
}

function normalise(field: string, value: unknown): unknown {
  if (field === 'emailDomains' && Array.isArray(value)) return value.map((d) => String(d).toLowerCase()).sort();
  if (field === 'mergeRules') return canonicalMergeRules(value);
  return value;
}

function toDesired(doc: ManifestDocument<OrgSpec>): DesiredEntry<OrgSpec>[] {
  const org = doc.metadata.organization;
  return [{ kind: KIND, org, key: org, spec: doc.spec, source: doc.pos(['spec']), doc }];
}

/** A live site as the default content resolves it. */
interface LiveSiteRef {
  id: string;
  title: string;
}

/** The site a document's `defaultContent` names, if any. */
const writtenSite = (spec: OrgSpec): string | undefined => spec.defaultContent?.site;

/** A default content site naming no Site manifest must name a live site: a warning offline (plan blocks the document otherwise). */
const crossValidate: CrossValidate<OrgSpec> = (entries, all, _report, index, warn) => {
  if (!warn) return;
  const known = namesManifest(all, 'Site', index);
  for (const e of entries) {
    const site = writtenSite(e.spec);
    if (site !== undefined && !known(e.org, site))
      warn(e.doc.pos(['spec', 'defaultContent', 'site']), mustExistLive('defaultContent.site', site, 'Site', e.org));
  }
};

/** The organization, plus its sites (the memoised list the Site kind shares) when a document names one. */
async function fetch(ctx: FetchContext, org: string, desired: DesiredEntry<OrgSpec>[]): Promise<OrgState> {
  if (desired.length === 0) return { objects: [] };
  const namesSite = desired.some((e) => writtenSite(e.spec) !== undefined);
  const mergeRules = desired.some((e) => writesMergeRules(e.spec));
  const [o, items, people] = await Promise.all([
    ctx.get<Record<string, unknown>>(orgPath(org)),
    namesSite ? ctx.list(sitesPath(org)) : Promise.resolve([]),
    mergeRules ? ctx.list(membersListPath(org)) : Promise.resolve(undefined),
  ]);
  const sites = items.flatMap((s): LiveSiteRef[] =>
    isRecord(s) && typeof s['id'] === 'string' ? [{ id: s['id'], title: String(s['title'] ?? '') }] : [],
  );
  return {
    objects: [{ kind: KIND, org, key: org, id: String(o['id'] ?? org), fields: orgFields(o) }],
    aux: { sites, ...(people ? { members: memberIds(people) } : {}) },
  };
}

/**
 * `defaultContent.site` → a site id: a Site manifest title (its id, or a ref to its create step), else a live
 * site by title (two with it: ConflictError, docops never guesses), else a live site id. Undefined: nothing.
 */
function resolveSite(ctx: DiffContext, org: string, name: string, live: OrgState): string | undefined {
  const known = ctx.resolve('Site', org, name);
  if (known !== undefined) return known;
  const sites = live.aux?.sites ?? [];
  const titled = sites.filter((s) => s.title === name);
  if (titled.length > 1) {
    throw new ConflictError(
      `defaultContent.site "${name}" of organization ${org} matches ${titled.length} live sites (${titled.map((s) => s.id).join(', ')}); name the one you mean by id`,
    );
  }
  return titled[0]?.id ?? sites.find((s) => s.id === name)?.id;
}

/** A note when the written site is a title that resolved to another value. */
function siteNote(written: OrgSpec['defaultContent'], siteId: string | undefined): string | undefined {
  const title = written?.site;
  if (siteId === undefined || title === undefined || title === siteId) return undefined;
  return isRef(siteId)
    ? `default content: site "${title}", created in this plan`
    : `default content: site "${title}" (${siteId})`;
}

function diff(ctx: DiffContext, org: string, desired: DesiredEntry<OrgSpec>[], live: OrgState): DiffResult {
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [], blocked: [] };
  const current = live.objects.find((o) => o.key === org);
  for (const entry of desired) {
    if (!current) {
      blockEntry(
        result,
        entry,
        entry.source,
        'organization not found (or not visible to the token); docops never creates one: check metadata.organization',
      );
      continue;
    }
    // What the PATCH sends: the default site by id, reviewers by user id.
    let resolved: Omit<OrgSpec, 'mergeRules'> & { mergeRules?: ApiMergeRules } = entry.spec;
    const written = entry.spec.defaultContent;
    if (written) {
      const name = written.site;
      const site = resolveSite(ctx, org, name, live);
      if (site === undefined) {
        blockEntry(
          result,
          entry,
          entry.doc.pos(['spec', 'defaultContent', 'site']),
          `defaultContent.site "${name}" is neither a Site manifest nor a live site (by title or id); the organization settings are not planned until it names an existing site`,
        );
        continue;
      }
      resolved = { ...entry.spec, defaultContent: { ...written, site } };
    }
    const rules = readMergeRules(entry.spec.mergeRules, ['spec', 'mergeRules']);
    if (rules) {
      const api = resolveMergeRules(ctx, org, rules, live.aux?.members ?? {});
      if ('message' in api) {
        blockEntry(
          result,
          entry,
          entry.doc.pos(api.at),
          `${api.message}; the organization settings are not planned until it names a member`,
        );
        continue;
      }
      resolved = { ...resolved, mergeRules: api };
    }
    const c = changedFields(resolved, current.fields, ORG_FIELDS, normalise);
    if (c.changed.length === 0) continue;
    // The plan shows defaultContent as written (a site title) and merge rules' reviewers by e-mail; the request carries ids (or a ref).
    const after = {
      ...c.after,
      ...('defaultContent' in c.after ? { defaultContent: entry.spec.defaultContent } : {}),
      ...('mergeRules' in c.after ? { mergeRules: entry.spec.mergeRules } : {}),
    };
    const before =
      'mergeRules' in c.before
        ? { ...c.before, mergeRules: shownMergeRules(c.before['mergeRules'], byId(live.aux?.members ?? {})) }
        : c.before;
    const content = c.after['defaultContent'];
    const siteId = isRecord(content) && typeof content['site'] === 'string' ? content['site'] : undefined;
    const note = siteNote(entry.spec.defaultContent, siteId);
    result.steps.push(
      makeStep({
        id: stepId(KIND, org, org, 'update'),
        action: 'update',
        phase: 'update',
        kind: KIND,
        org,
        key: org,
        wave: DEPTH,
        before,
        after,
        requests: [orgPatch(org, c.before, c.after)],
        dependsOn: refSteps(siteId),
        entry,
        ...(note !== undefined ? { note } : {}),
      }),
    );
  }
  return result;
}

function exportDocs(org: string, live: OrgState): object[] {
  return live.objects.map((o) => {
    const spec: Record<string, unknown> = {};
    for (const f of ORG_FIELDS) {
      const v = o.fields[f];
      // Omit unset values and the false defaults of the optional switches.
      if (v === null || v === undefined) continue;
      if ((f === 'sso' || f === 'ai') && v === false) continue;
      if (f === 'mergeRules') {
        // The default ({type: none}) is left out, and so are rules naming a user no member list gives an e-mail for.
        // Rules of a type docops does not know are written as answered (export marks them).
        const rules = liveMergeRules(v);
        const written = !rules
          ? unknownMergeRules(v)
          : rules.type !== 'none'
            ? manifestMergeRules(rules, byId(live.aux?.members ?? {}))
            : undefined;
        if (written) spec[f] = written;
        continue;
      }
      spec[f] = v;
    }
    return manifestDoc(KIND, org, spec);
  });
}

export const organizationKind: KindDefinition<OrgSpec, OrgObject, OrgAux, OrganizationManifestSpec> = {
  kind: KIND,
  identity: 'the organization id in metadata.organization (one Organization document per organization)',
  schema: organizationSchema,
  depth: DEPTH,
  // The API's MemberRoleOrGuest: null is the guest role.
  nullMeanings: { Organization: { defaultRole: 'guest' } },
  prunable: false,
  // defaultContent may name a Site manifest by title: diff after Site so its id (or create ref) is registered.
  needs: ['Site'],
  // Scoped reconciles: a document naming a default site reads the Site kind's ids; it changes with Site's plan.
  scope: { reads: (entries) => (entries.some((e) => writtenSite(e.spec) !== undefined) ? ['Site'] : []) },
  toDesired,
  crossValidate,
  fetch,
  diff,
  export: exportDocs,
  // An event on the organization reads it again; the order of its top-level content is not read.
  informer: {
    targets: ['organization'],
    stale(change, org) {
      const a = actionOf(change);
      if (!a || change.id !== org) return undefined;
      return a.part === '' ? [{ get: orgPath(org) }] : a.part === 'content' ? [] : undefined;
    },
  },
};
