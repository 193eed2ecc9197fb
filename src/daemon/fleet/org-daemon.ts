/**
 * One organization of a fleet as a daemon of its own: its config (the fleet's, with the organization's manifests,
 * token, schedule, prune, safety and notify), its environment (its token as DOCOPS_TOKEN, and no other) and its
 * manifest loader, which refuses a document that names another organization (each directory is one
 * organization's, so a document elsewhere is a mistake, never a write with this organization's token).
 */
import { join } from 'node:path';
import { ValidationError } from '../../model/errors.js';
import type { Env } from '../../manifests/interpolate.js';
import type { ManifestDocument } from '../../model/document.js';
import type { DocopsConfig } from '../../config/config.js';
import type { LoadManifests } from '../run.js';
import type { OrgConfig } from '../../config/organizations.js';

export function orgDaemonConfig(base: DocopsConfig, org: OrgConfig): DocopsConfig {
  const { organizations: _o, shard: _s, ha: _h, tokenFile: _t, at: _a, schedule, notify, safety, ...rest } = base;
  void [_o, _s, _h, _t, _a];
  const chosenSchedule = org.schedule ?? schedule;
  const chosenSafety = org.safety ?? safety;
  return {
    ...rest,
    manifestsDir: org.manifestsDir,
    ...(org.tokenFile !== undefined ? { tokenFile: org.tokenFile } : {}),
    ...(org.at?.tokenFile !== undefined ? { at: { tokenFile: org.at.tokenFile } } : {}),
    ...(chosenSchedule !== undefined ? { schedule: chosenSchedule } : {}),
    ...(chosenSafety !== undefined ? { safety: chosenSafety } : {}),
    prune: org.prune ?? base.prune,
    notify: org.notify ?? notify ?? [],
    // Each organization's delete journals apart: `docops undo` of one never meets another's.
    journalDir: join(base.journalDir, org.id),
  };
}

/**
 * The organization's environment: its token (read by src/config/tokens.ts, orgToken) as DOCOPS_TOKEN when it comes from
 * its variable, and never the process's own DOCOPS_TOKEN nor any organization's token variable: no manifest can
 * read another organization's token as `${VAR}`.
 */
export function orgEnv(env: Env, org: OrgConfig, token: string, all: readonly OrgConfig[]): Env {
  const names = new Set(['DOCOPS_TOKEN', ...all.flatMap((o) => (o.tokenEnv !== undefined ? [o.tokenEnv] : []))]);
  const rest = Object.fromEntries(Object.entries(env).filter(([k]) => !names.has(k)));
  return org.tokenEnv !== undefined ? { ...rest, DOCOPS_TOKEN: token } : rest;
}

/** The load, refusing documents that name another organization than this directory's. */
export function orgLoader(org: OrgConfig, index: number, load: LoadManifests): LoadManifests {
  return async (dir, kinds, options) => {
    const loaded = await load(dir, kinds, options);
    const foreign = (loaded.documents as ManifestDocument[]).filter((d) => d.metadata.organization !== org.id);
    if (foreign.length > 0) {
      throw new ValidationError(
        foreign.map((d) => ({
          ...d.pos(['metadata', 'organization']),
          message: `metadata.organization: ${d.metadata.organization} is not the organization of this directory (${org.id}, organizations[${index}]); move the document to that organization's directory`,
        })),
      );
    }
    return loaded;
  };
}
