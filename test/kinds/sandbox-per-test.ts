/**
 * End-to-end kind tests against the sandbox: each test starts its own sandbox with a fast-retrying client and
 * a temporary manifest directory, and all of them are closed and removed after the test.
 */
import { rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { fastClient, tempDir } from '../helpers/pipeline.js';

export interface SandboxRun {
  sb: RunningSandbox;
  client: ApiClient;
  /** An empty temporary directory for the test's manifests. */
  dir: string;
}

/** Registers the cleanup (afterEach) in the current suite; returns `start`, one fresh run per call. */
export function sandboxPerTest(dirPrefix: string): () => Promise<SandboxRun> {
  const running: SandboxRun[] = [];
  afterEach(async () => {
    for (const r of running.splice(0)) {
      await r.client.close();
      await r.sb.close();
      rmSync(r.dir, { recursive: true, force: true });
    }
  });
  return async () => {
    const sb = await startSandbox();
    const r = { sb, client: fastClient(sb), dir: tempDir(dirPrefix) };
    running.push(r);
    return r;
  };
}
