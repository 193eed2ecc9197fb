/**
 * What a fleet's parts share: an organization's place in the fleet, what the fleet's HTTP endpoints read of it
 * (FleetView, which Fleet implements), and the status those endpoints answer. Apart from fleet.ts and http.ts so
 * that neither imports the other.
 */
import type { Registry } from 'prom-client';
import type { Logger } from '../../log.js';
import type { DocopsConfig } from '../../config/config.js';
import type { OrgConfig } from '../../config/organizations.js';
import type { Daemon } from '../daemon.js';
import type { FleetLeases } from './leases.js';

export interface FleetOrg {
  config: OrgConfig;
  /** Its index in `organizations:` (for messages). */
  index: number;
  shard?: number;
  daemon: Daemon;
}

/** What the endpoints read of a running fleet (http.ts). */
export interface FleetView {
  readonly config: DocopsConfig;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly orgs: ReadonlyMap<string, FleetOrg>;
  readonly leaseView: FleetLeases | undefined;
  readonly isStopping: boolean;
}

export interface FleetStatus {
  generatedAt: string;
  fleet: { organizations: number; configured: number; shard: DocopsConfig['shard'] | null; leases: unknown };
  organizations: ({ org: string; shard: number | null } & Awaited<
    ReturnType<FleetOrg['daemon']['status']['status']>
  >)[];
}
