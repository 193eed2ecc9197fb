/**
 * The daemon's approvals (docs/policy.md): started when the config has a policy, loaded lazily so a daemon
 * without one never loads the policy code.
 */
import type { Logger } from '../log.js';
import type { Env } from '../manifests/interpolate.js';
import type { KindDefinition } from '../model/kind.js';
import type { DaemonApprovals } from '../policy/daemon-approvals.js';
import type { DocopsConfig } from '../config/config.js';
import { manifestsRevision } from './status/revision.js';

export async function startApprovals(
  c: DocopsConfig,
  policy: NonNullable<DocopsConfig['policy']>,
  parts: { env: Env; logger: Logger; kinds: readonly KindDefinition[]; fire(): void },
): Promise<DaemonApprovals> {
  const { DaemonApprovals } = await import('../policy/daemon-approvals.js');
  return DaemonApprovals.start(
    {
      policy,
      manifestsDir: c.manifestsDir,
      journalDir: c.journalDir,
      ...(c.approvals ? { approvals: c.approvals } : {}),
      ...(c.reconcileSecret !== undefined ? { reconcileSecret: c.reconcileSecret } : {}),
    },
    {
      env: parts.env,
      logger: parts.logger.child({ component: 'policy' }),
      kinds: parts.kinds.map((k) => k.kind),
      trigger: parts.fire,
      commit: async () =>
        ((r) => (r?.source === 'git' ? r.commit : undefined))(await manifestsRevision(c.manifestsDir)),
    },
  );
}
