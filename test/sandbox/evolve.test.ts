/**
 * The `evolve=P` habit (packages/sandbox/src/evolve.ts): answers carry fields docops does not know and values
 * outside the spec's enums, coherently — the store holds them, a write of the field replaces the value, a body that
 * writes the object may send the fields back and keeps them, a PUT that replaces the object without them drops them —
 * deterministic under the seed, and nothing of it without the habit.
 */
import { describe, expect, it } from 'vitest';
import { sandbox, type Client } from './helpers.js';

const ORG = '/orgs/org-demo';

async function withSite(c: Client): Promise<string> {
  const site = await c.call('POST', `${ORG}/sites`, { title: 'Evolved portal' });
  expect(site.status).toBe(201);
  return site.body.id as string;
}

describe('evolve', () => {
  it('answers unknown fields and a newer enum value wherever the object is, the same on every read', async () => {
    const c = await sandbox();
    c.sb.setFaults('evolve=1,seed=3');
    const members = (await c.call('GET', `${ORG}/members`)).body.items as Record<string, unknown>[];
    const bob = members.find((m) => (m['user'] as { email: string }).email === 'bob@acme.test')!;
    expect(bob).toMatchObject({ role: 'billing', mfaEnabled: true, seat: { type: 'full' } });
    // The token's own user keeps its role (docops acts as an administrator), with the new fields.
    const ada = members.find((m) => m['id'] === c.sb.store.tokenUser)!;
    expect(ada).toMatchObject({ role: 'admin', mfaEnabled: true });
    const one = await c.call('GET', `${ORG}/members/${bob['id'] as string}`);
    expect(one.body).toEqual(bob);
    expect((await c.call('GET', `${ORG}/members`)).body.items).toEqual(members);
    // Nested in another answer: a team member item's organization member.
    const team = (await c.call('GET', `${ORG}/teams`)).body.items[0];
    expect(team).toMatchObject({ directorySync: { provider: 'scim' }, color: '#7c3aed' });
  });

  it('is fixed by the seed: the same objects evolve for a seed, others for another', async () => {
    const evolved = async (seed: number): Promise<string[]> => {
      const c = await sandbox();
      c.sb.setFaults(`evolve=0.5,seed=${seed}`);
      const items = (await c.call('GET', `${ORG}/members`)).body.items as Record<string, unknown>[];
      return items.filter((m) => m['mfaEnabled'] === true).map((m) => m['id'] as string);
    };
    const [a, again, other] = [await evolved(1), await evolved(1), await evolved(2)];
    expect(a).toEqual(again);
    expect(a.length).toBeGreaterThan(0);
    expect(other).not.toEqual(a);
  });

  it('keeps the value in the store until someone writes the field; the unknown fields stay', async () => {
    const c = await sandbox();
    c.sb.setFaults('evolve=1,seed=3');
    const path = `${ORG}/members/u-bob`;
    expect((await c.call('GET', path)).body.role).toBe('billing');
    c.sb.setFaults(undefined); // the world stays as it became
    expect((await c.call('GET', path)).body.role).toBe('billing');
    const patched = await c.call('PATCH', path, { role: 'edit' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ role: 'edit', mfaEnabled: true });
    expect((await c.call('GET', path)).body).toMatchObject({ role: 'edit', seat: { type: 'full' } });
  });

  it('takes the fields and the value back in a body that writes the object, and keeps what it sent', async () => {
    const c = await sandbox();
    c.sb.setFaults('evolve=1,seed=3');
    const path = `${ORG}/members/u-bob`;
    const back = await c.call('PATCH', path, { role: 'billing', mfaEnabled: false });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ role: 'billing', mfaEnabled: false, seat: { type: 'full' } });
    // Another member's body may not carry a field that member does not have: the sandbox stays strict.
    c.sb.setFaults(undefined);
    const team = await c.call('POST', `${ORG}/teams`, { title: 'Fresh' });
    expect((await c.call('PATCH', `${ORG}/teams/${team.body.id as string}`, { color: 'red' })).status).toBe(400);
  });

  it("a site's customization: new members at the top and nested, a newer theme, kept by a read-modify-write PUT", async () => {
    const c = await sandbox();
    const site = await withSite(c);
    const path = `${ORG}/sites/${site}/customization`;
    c.sb.setFaults('evolve=1,seed=3');
    const read = (await c.call('GET', path)).body;
    expect(read).toMatchObject({
      search: { mode: 'semantic' },
      density: 'compact',
      styling: { theme: 'aurora', glass: { blur: 12 }, motion: 'reduced' },
    });
    const { updatedAt: _, ...whole } = read;
    const put = await c.call('PUT', path, { ...whole, styling: { ...whole.styling, corners: 'straight' } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      search: { mode: 'semantic' },
      styling: { theme: 'aurora', corners: 'straight', glass: { blur: 12 } },
    });
    expect((await c.call('GET', path)).body).toEqual(put.body);
    // A PUT replaces: what it leaves out is gone.
    const { search: _s, density: _d, ...without } = whole;
    const { glass: _g, motion: _m, ...styling } = whole.styling;
    expect((await c.call('PUT', path, { ...without, styling: { ...styling, theme: 'bold' } })).status).toBe(200);
    const after = (await c.call('GET', path)).body;
    expect(after).not.toHaveProperty('search');
    expect(after.styling).not.toHaveProperty('glass');
    expect(after.styling.theme).toBe('bold');
  });

  it('gives objects created while it is set the new fields, not a newer enum value', async () => {
    const c = await sandbox();
    c.sb.setFaults('evolve=1,seed=3');
    const site = await withSite(c);
    const got = (await c.call('GET', `${ORG}/sites/${site}`)).body;
    expect(got).toMatchObject({ visibility: 'public', assistant: { enabled: true }, indexing: 'auto' });
    expect((await c.call('GET', `${ORG}/sites/${site}/customization`)).body).toMatchObject({
      search: { mode: 'semantic' },
      styling: { theme: 'clean', glass: { blur: 12 } },
    });
  });

  it('changes nothing without the habit (or at 0)', async () => {
    const plain = await sandbox();
    const zero = await sandbox();
    zero.sb.setFaults('evolve=0,seed=3');
    for (const c of [plain, zero]) {
      const bob = (await c.call('GET', `${ORG}/members/u-bob`)).body;
      expect(bob.role).toBe('edit');
      expect(bob).not.toHaveProperty('mfaEnabled');
      expect(c.sb.store.hasTable('evolved')).toBe(false);
    }
  });
});
