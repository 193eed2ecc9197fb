/**
 * SamlProvider diff (pure). Per desired provider: create (POST with the written fields, capturing the id), or one
 * PATCH with the changed fields only (a pinned id also renames). Live providers no manifest mentions are unmanaged,
 * or deleted under prune. The certificate is compared by fingerprint and shown only as one: before/after hold
 * fingerprints, and the request marks the body's certificate `masked` so a printed JSON plan shows the fingerprint
 * too (apply and the saved-plan file send the text).
 *
 * A `defaultTeam` that names nothing, or a team this plan deletes, blocks the provider (see team-ref.ts).
 */
import type { DesiredEntry, DiffContext, DiffResult } from '../../model/kind.js';
import type { RecoverSpec, Step } from '../../model/plan.js';
import { ref } from '../../model/refs.js';
import { blockEntry, makeStep, refSteps, stepId } from '../common.js';
import { identityTitle, withDisplayKeys, matchByIdOrTitle } from '../match.js';
import { uniqueLiveKey, unmatchedLive } from '../unmatched.js';
import {
  SAML_DEPTH,
  SAML_KIND,
  samlPath,
  samlProviderPath,
  type SamlObject,
  type SamlSpec,
  type SamlState,
} from './model.js';
import { resolveTeam, teamsPrunedByPlan } from './team-ref.js';

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

export function diffSaml(
  ctx: DiffContext,
  org: string,
  entries: DesiredEntry<SamlSpec>[],
  live: SamlState,
): DiffResult {
  const desired = withDisplayKeys(entries);
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [], blocked: [] };
  const { matched, unmatched, stalePins } = matchByIdOrTitle(SAML_KIND, desired, live.objects);
  for (const e of stalePins)
    result.warnings.push({
      kind: SAML_KIND,
      org,
      key: e.key,
      message: `pinned id ${e.id} does not exist; matched by label instead`,
    });
  const pruned = teamsPrunedByPlan(ctx, org);

  for (const entry of desired) {
    const team = teamTarget(ctx, org, entry, live, pruned, result);
    if (team.state === 'blocked') continue;
    const current = matched.get(entry);
    if (current) {
      ctx.register(SAML_KIND, org, entry.key, current.id);
      const step = updateStep(org, entry, current, team);
      if (step) result.steps.push(step);
    } else {
      result.steps.push(createStep(org, entry, team, live));
      ctx.register(SAML_KIND, org, entry.key, ref(stepId(SAML_KIND, org, entry.key, 'create')));
    }
  }

  // A rename onto the label of a provider that stays would make labels ambiguous for the next plan.
  if (!ctx.prune(SAML_KIND, org)) {
    for (const [entry, current] of matched) {
      const label = identityTitle(entry);
      const clash = current.key !== label && unmatched.find((o) => o.key === label);
      if (clash)
        result.warnings.push({
          kind: SAML_KIND,
          org,
          key: entry.key,
          message: `live SAML provider ${clash.id} already has this label`,
        });
    }
  }

  unmatchedLive(result, {
    kind: SAML_KIND,
    org,
    prune: ctx.prune(SAML_KIND, org),
    objects: unmatched,
    key: uniqueLiveKey(unmatched),
    wave: () => SAML_DEPTH,
    path: (o) => samlProviderPath(org, o.id),
    before: (o) => ({ label: o.key }),
  });
  return result;
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

function createStep(org: string, entry: DesiredEntry<SamlSpec>, team: TeamTarget, live: SamlState): Step {
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
  return makeStep({
    id: stepId(SAML_KIND, org, entry.key, 'create'),
    action: 'create',
    phase: 'create',
    kind: SAML_KIND,
    org,
    key: entry.key,
    wave: SAML_DEPTH,
    before: null,
    after: c.after,
    requests: [
      {
        method: 'POST',
        path: samlPath(org),
        body: c.body,
        capture: { id: 'id' },
        recover: recoverByLabel(live.objects, spec.label),
        ...(c.masked ? { masked: c.masked } : {}),
      },
    ],
    dependsOn: refSteps(teamId),
    entry,
    ...(note !== undefined ? { note } : {}),
  });
}

function updateStep(
  org: string,
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
  return makeStep({
    id: stepId(SAML_KIND, org, entry.key, 'update'),
    action: 'update',
    phase: 'update',
    kind: SAML_KIND,
    org,
    key: entry.key,
    wave: SAML_DEPTH,
    before: c.before,
    after: c.after,
    requests: [
      {
        method: 'PATCH',
        path: samlProviderPath(org, current.id),
        body: c.body,
        ...(c.masked ? { masked: c.masked } : {}),
      },
    ],
    dependsOn: refSteps(teamId),
    entry,
    ...(note !== '' ? { note } : {}),
  });
}

/** "default team: "Platform", created in this plan" or "default team: "Platform" (team-1)" when written differently. */
function teamNote(written: string, id: string): string | undefined {
  if (refSteps(id).length > 0) return `default team "${written}", created in this plan`;
  return written === id ? undefined : `default team "${written}" (${id})`;
}
