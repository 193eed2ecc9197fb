/**
 * The daemon's DriftKeeper from its config: the drift setting of each kind, and, for `propose`, the repository,
 * its token (DOCOPS_GITHUB_TOKEN or proposals.github.tokenFile, registered as a secret) and where the manifests
 * directory lies inside it (proposals.github.path, else found from its git checkout). Loaded only when a kind keeps
 * drift.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { configProblem, type SourcePos } from '../../model/errors.js';
import type { DriftPolicy } from '../../model/plan.js';
import type { KindDefinition } from '../../model/kind.js';
import type { Env } from '../../manifests/interpolate.js';
import { registerSecret } from '../../secrets.js';
import type { DocopsConfig } from '../../config/config.js';
import { DriftKeeper, type ProposalTarget } from './propose.js';

/** Kind → its drift setting, for the kinds that keep drift (none: the daemon makes no DriftKeeper). */
export function driftPolicies(config: Pick<DocopsConfig, 'kinds'>): Record<string, DriftPolicy> {
  const out: Record<string, DriftPolicy> = {};
  for (const [kind, c] of Object.entries(config.kinds ?? {}))
    if (c.drift !== undefined && c.drift !== 'revert') out[kind] = c.drift;
  return out;
}

export async function startDriftKeeper(
  config: DocopsConfig,
  kinds: readonly KindDefinition[],
  env: Env,
): Promise<DriftKeeper | undefined> {
  const policies = driftPolicies(config);
  if (Object.keys(policies).length === 0) return undefined;
  const gh = config.proposals?.github;
  let target: ProposalTarget | undefined;
  if (gh && Object.values(policies).includes('propose')) {
    const at = config.proposals?.at;
    const token =
      env.DOCOPS_GITHUB_TOKEN !== undefined && env.DOCOPS_GITHUB_TOKEN !== ''
        ? env.DOCOPS_GITHUB_TOKEN
        : gh.tokenFile !== undefined
          ? await readToken(gh.tokenFile, at?.tokenFile)
          : undefined;
    if (token === undefined)
      throw configProblem(at?.github, 'proposals.github: no GitHub token (tokenFile, or DOCOPS_GITHUB_TOKEN)');
    registerSecret(token);
    target = {
      repository: gh.repository,
      apiUrl: gh.apiUrl,
      token,
      branch: gh.branch,
      ...(gh.base !== undefined ? { base: gh.base } : {}),
      path: gh.path ?? (await pathInCheckout(config.manifestsDir)),
    };
  }
  return new DriftKeeper({ policies, ...(target ? { target } : {}), kinds, manifestsDir: config.manifestsDir });
}

async function readToken(file: string, at: SourcePos | undefined): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (err) {
    throw configProblem(
      at,
      `proposals.github.tokenFile: cannot read the GitHub token file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

/** The manifests directory relative to the work tree holding it ('' at its root, or outside any checkout). */
async function pathInCheckout(dir: string): Promise<string> {
  const start = resolve(dir);
  for (let at = start; ; at = dirname(at)) {
    if (await stat(join(at, '.git')).catch(() => undefined)) return relative(at, start).split(sep).join('/');
    if (dirname(at) === at) return '';
  }
}
