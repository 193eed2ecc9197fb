/** The Lease endpoints the HA tests run against live with the benchmark, which times a takeover on them too. */
export * from '../../src/bench/lease-server.js';
