/** A lease in memory with the API server's compare-and-swap (tests of one or more electors in one process). */
import { LeaseConflictError, type LeaseLock, type LeaseRecord } from '../../src/daemon/ha/election.js';

export function memoryLease(record: LeaseRecord): LeaseLock & { record: LeaseRecord; version: number } {
  const lease = {
    description: 'test/docops',
    record,
    version: 1,
    async get() {
      return { record: { ...lease.record }, version: String(lease.version) };
    },
    async create(): Promise<string> {
      throw new LeaseConflictError('exists');
    },
    async update(next: LeaseRecord, version: string) {
      if (version !== String(lease.version)) throw new LeaseConflictError('moved on');
      lease.record = { ...next };
      return String(++lease.version);
    },
  };
  return lease;
}
