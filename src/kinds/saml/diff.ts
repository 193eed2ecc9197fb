/**
 * SamlProvider diff (pure). Per desired provider: create (POST with the written fields, capturing the id), or one
 * PATCH with the changed fields only (a pinned id also renames). Live providers no manifest mentions are unmanaged,
 * or deleted under prune. The certificate is compared by fingerprint and shown only as one: before/after hold
 * fingerprints, and the request marks the body's certificate `masked` so a printed JSON plan shows the fingerprint
 * too (apply and the saved-plan file send the text).
 *
 * A `defaultTeam` that names nothing, or a team this plan deletes, blocks the provider (see src/kinds/team-ref.ts).
 */
import type { DesiredEntry, DiffContext, DiffResult } from '../../model/kind.js';
import type { RecoverSpec, Step } from '../../model/plan.js';
import { blockEntry, refSteps } from '../common.js';
import {
  BLOCKED,
  createRequest,
  createStep,
  diffTitled,
  updateStep,
  type TitledKind,
  type TitledScope,
} from '../titled.js';
import {
  SAML_DEPTH,
  SAML_KIND,
  samlPath,
  samlProviderPath,
  type SamlObject,
  type SamlSpec,
  type SamlState,
} from './model.js';
import { resolveTeam, teamsPrunedByPlan } from '../team-ref.js';

/** Apply's look-up of a create whose outcome is unknown: the listed provider with the label the body sends. */
function recoverByLabel(live: readonly SamlObject[], label: string): RecoverSpec {
  const exclude = live.filter((o) => o.key === label).map((o) => o.id);
  return { match: [{ field: 'label', body: '/label' }], ...(exclude.length > 0 ? { exclude } : {}) };
}

/** What one provider's requests send and its step shows. */
interface Change {
  body: Record<string, unknown>;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  masked?: Record<string, string>;
}

/** The team the entry names, resolved: absent when not written; `blocked` when the entry was blocked. */
type TeamTarget = { state: 'none' } | { state: 'team'; id: string } | { state: 'blocked' };

const SAML: TitledKind<SamlObject> = {
  kind: SAML_KIND,
  depth: SAML_DEPTH,
  matchedBy: 'label',
  renameClash: (o) => `live SAML provider ${o.id} already has this label`,
};

type SamlScope = TitledScope<SamlSpec, SamlObject>;

export function diffSaml(
  ctx: DiffContext,
  org: string,
  entries: DesiredEntry<SamlSpec>[],
  live: SamlState,
): DiffResult {
  const pruned = teamsPrunedByPlan(ctx, org);
  return diffTitled(SAML, ctx, org, entries, live.objects, (t) => {
    const targetOf = (entry: DesiredEntry<SamlSpec>) => teamTarget(ctx, org, entry, live, pruned, t.result);
    return {
      create(entry) {
        const team = targetOf(entry);
        return team.state === 'blocked' ? BLOCKED : [createSamlStep(t, entry, team, live)];
      },
      update(entry, current) {
        const team = targetOf(entry);
        if (team.state === 'blocked') return BLOCKED;
        const step = updateSamlStep(t, entry, current, team);
        return step ? [step] : [];
      },
      prune: () => ({ path: (o) => samlProviderPath(org, o.id), before: (o) => ({ label: o.key }) }),
    };
  });
}

function teamTarget(
  ctx: DiffContext,
  org: string,
  entry: DesiredEntry<SamlSpec>,
  live: SamlState,
  pruned: ReadonlySet<string>,
  result: DiffResult,
): TeamTarget {
  const name = entry.spec.defaultTeam;
  if (name === undefined) return { state: 'none' };
  const pos = entry.doc.pos(['spec', 'defaultTeam']);
  const id = resolveTeam(ctx, org, name, live.aux?.teams ?? []);
  if (id === undefined) {
    blockEntry(
      result,
      entry,
      pos,
      `defaultTeam "${name}" is neither a Team manifest nor a live team (by title or id); the provider is not planned until it names an existing team`,
    );
    return { state: 'blocked' };
  }
  if (pruned.has(id)) {
    blockEntry(
      result,
      entry,
      pos,
      `defaultTeam "${name}" names team ${id}, which this plan deletes (Team prune, no Team manifest describes it): describe the team in a Team manifest, or name another`,
    );
    return { state: 'blocked' };
  }
  return { state: 'team', id };
}

function createSamlStep(t: SamlScope, entry: DesiredEntry<SamlSpec>, team: TeamTarget, live: SamlState): Step {
  const spec = entry.spec;
  const c: Change = { body: { label: spec.label }, before: {}, after: { label: spec.label } };
  for (const f of ['entityID', 'ssoURL'] as const) {
    const v = spec[f];
    if (v !== undefined) c.body[f] = c.after[f] = v;
  }
  if (spec.certificate) {
    c.body['certificate'] = spec.certificate.text;
    c.after['certificate'] = spec.certificate.fingerprint;
    c.masked = { certificate: spec.certificate.fingerprint };
  }
  if (team.state === 'team') {
    c.body['defaultTeam'] = team.id;
    c.after['defaultTeam'] = spec.defaultTeam;
  }
  if (spec.defaultRole !== undefined) c.body['defaultRole'] = c.after['defaultRole'] = spec.defaultRole;
  const teamId = team.state === 'team' ? team.id : undefined;
  const note = teamId !== undefined && spec.defaultTeam !== undefined ? teamNote(spec.defaultTeam, teamId) : undefined;
  const post = createRequest(samlPath(t.org), c.body, recoverByLabel(live.objects, spec.label));
  return createStep(t, entry, {
    after: c.after,
    requests: [{ ...post, ...(c.masked ? { masked: c.masked } : {}) }],
    dependsOn: refSteps(teamId),
    ...(note !== undefined ? { note } : {}),
  });
}

function updateSamlStep(
  t: SamlScope,
  entry: DesiredEntry<SamlSpec>,
  current: SamlObject,
  team: TeamTarget,
): Step | undefined {
  const spec = entry.spec;
  const have = current.fields;
  const c: Change = { body: {}, before: {}, after: {} };
  const plain = (field: 'label' | 'entityID' | 'ssoURL', want: string | undefined): void => {
    if (want === undefined || want === have[field]) return;
    c.body[field] = c.after[field] = want;
    c.before[field] = have[field];
  };
  plain('label', spec.label);
  plain('entityID', spec.entityID);
  plain('ssoURL', spec.ssoURL);
  if (spec.certificate && spec.certificate.fingerprint !== have.certificate) {
    c.body['certificate'] = spec.certificate.text;
    c.before['certificate'] = have.certificate;
    c.after['certificate'] = spec.certificate.fingerprint;
    c.masked = { certificate: spec.certificate.fingerprint };
  }
  const teamId = team.state === 'team' && team.id !== have.defaultTeam?.id ? team.id : undefined;
  if (teamId !== undefined) {
    c.body['defaultTeam'] = teamId;
    c.before['defaultTeam'] = have.defaultTeam?.title ?? null;
    c.after['defaultTeam'] = spec.defaultTeam;
  }
  if (spec.defaultRole !== undefined && spec.defaultRole !== have.defaultRole) {
    c.body['defaultRole'] = c.after['defaultRole'] = spec.defaultRole;
    c.before['defaultRole'] = have.defaultRole;
  }
  if (Object.keys(c.body).length === 0) return undefined;
  const notes = [
    c.before['label'] !== undefined ? `rename SAML provider ${current.id}` : undefined,
    teamId !== undefined && spec.defaultTeam !== undefined ? teamNote(spec.defaultTeam, teamId) : undefined,
  ];
  const note = notes.filter((n) => n !== undefined).join('; ');
  return updateStep(t, entry, {
    before: c.before,
    after: c.after,
    requests: [
      {
        method: 'PATCH',
        path: samlProviderPath(t.org, current.id),
        body: c.body,
        ...(c.masked ? { masked: c.masked } : {}),
      },
    ],
    dependsOn: refSteps(teamId),
    ...(note !== '' ? { note } : {}),
  });
}

/** "default team: "Platform", created in this plan" or "default team: "Platform" (team-1)" when written differently. */
function teamNote(written: string, id: string): string | undefined {
  if (refSteps(id).length > 0) return `default team "${written}", created in this plan`;
  return written === id ? undefined : `default team "${written}" (${id})`;
}
