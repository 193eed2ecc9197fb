/**
 * The shard of an organization: a stable hash of its id (SHA-256, the first 32 bits) modulo the shard count. The
 * same on every replica, every version and every platform, so static shards agree without talking and a dynamic
 * shard's Lease always stands for the same organizations (as long as the count stays).
 */
import { createHash } from 'node:crypto';

export function shardOf(orgId: string, count: number): number {
  if (!Number.isSafeInteger(count) || count < 1)
    throw new RangeError(`shard count must be a positive integer, got ${count}`);
  return createHash('sha256').update(orgId, 'utf8').digest().readUInt32BE(0) % count;
}
