/**
 * Drift adopted (src/daemon/drift/adopt.ts) never writes a value docops does not know into a manifest: the edit
 * would make the manifests invalid (the schema refuses the value). The drift stays held, with the reason.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { adoptDrift } from '../../src/daemon/drift/adopt.js';
import { computePlan } from '../../src/engine/reconcile.js';
import { KINDS } from '../../src/kinds/index.js';
import { fastClient, loadDesired, tempDir } from '../helpers/pipeline.js';

const running: RunningSandbox[] = [];
afterEach(async () => Promise.all(running.splice(0).map((s) => s.close())));

const MEMBERS = `apiVersion: docops/v1
kind: Members
metadata:
  organization: org-demo
spec:
  members:
    - { email: bob@acme.test, role: edit }
`;

describe('adopting drift to a value docops does not know', () => {
  it('writes no edit (its manifest would not validate) and says why; a known value is adopted', async () => {
    const sb = await startSandbox({ seed: 'demo' });
    running.push(sb);
    const client = fastClient(sb);
    const dir = tempDir('adopt-unknown');
    writeFileSync(join(dir, 'members.yaml'), MEMBERS);
    const desired = await loadDesired(dir);
    const adopt = async (): Promise<ReturnType<typeof adoptDrift>> => {
      const { plan, live } = await computePlan(client, KINDS, desired);
      const held = plan.steps.filter((s) => s.kind === 'Members');
      expect(held.length).toBe(1);
      return adoptDrift({ kinds: KINDS, desired, live, options: {}, plan, held, manifestsDir: dir });
    };
    sb.setFaults('evolve=1,seed=1'); // bob's role is now "billing"
    const unknown = await adopt();
    expect(unknown.files.size).toBe(0);
    expect(unknown.skipped.map((s) => s.why)).toEqual([
      'the live value is one docops does not know (from a newer API): no manifest can write it, so it is left as a drift to revert or to change in the app',
    ]);
    await client.request('PATCH', '/orgs/org-demo/members/u-bob', { body: { role: 'admin' } });
    const known = await adopt();
    expect(known.adopted.length).toBe(1);
    expect(JSON.stringify([...known.files.values()])).toContain('admin');
    await client.close();
  });
});
