/** The Lease endpoints the HA tests run against live with the benchmark, which times a takeover on them too. */
export * from '../../tools/bench/lease-server.js';
