/**
 * CONTRACT CHECK of the bodies docops sends for a site's looks, against the official spec's request schemas:
 * the customization PUT (what apply builds by laying the plan's patch over the object it read, for a new site
 * and for one customized before) and the adaptive-schema PUT of a manifest that leaves every description out.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import { applyPlan } from '../../src/engine/apply.js';
import type { HttpMethod } from '../../src/model/plan.js';
import { computePlan } from '../../src/engine/reconcile.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { fastClient, tempDir } from '../helpers/pipeline.js';
import { requestValidator } from './contract-spec.js';

const S = '/orgs/{organizationId}/sites/{siteId}';

/** The client apply uses, keeping every write it sends. */
function recording(client: ApiClient): {
  client: ApiClient;
  writes: { method: HttpMethod; path: string; body: unknown }[];
} {
  const writes: { method: HttpMethod; path: string; body: unknown }[] = [];
  return {
    writes,
    client: {
      baseUrl: client.baseUrl,
      request: (method, path, options) => {
        if (method !== 'GET') writes.push({ method, path, body: structuredClone(options?.body) });
        return client.request(method, path, options);
      },
      get: (path, query) => client.get(path, query),
      paginate: (path, query) => client.paginate(path, query),
      listAll: (path, query) => client.listAll(path, query),
      close: () => client.close(),
    },
  };
}

const running: { sb: RunningSandbox; client: ApiClient; dir: string }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.client.close();
    await r.sb.close();
    rmSync(r.dir, { recursive: true, force: true });
  }
});

function expectValid(validate: ReturnType<typeof requestValidator>, body: unknown): void {
  const valid = validate(body);
  expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
  expect(valid).toBe(true);
}

describe('contract: the customization and adaptive-schema bodies docops sends', () => {
  it('every PUT body is a valid request of the official spec', async () => {
    const sb = await startSandbox();
    const base = fastClient(sb);
    const dir = tempDir('contract-appearance');
    running.push({ sb, client: base, dir });
    const customization = {
      title: 'Acme Docs',
      styling: {
        primaryColor: { light: '#FF6600' },
        font: 'Roboto',
        headingFont: null,
        codeTheme: { default: { dark: 'dracula' } },
      },
      favicon: { emoji: '🚀' },
      header: { preset: 'custom', primaryLink: { kind: 'url', url: 'https://acme.test' } },
      announcement: {
        enabled: true,
        message: 'Maintenance on Friday',
        style: 'warning',
        link: { title: 'Status', to: { kind: 'url', url: 'https://status.acme.test' } },
      },
      socialAccounts: [{ platform: 'github', handle: 'acme', display: { footer: true, header: false } }],
      ai: { mode: 'assistant', suggestions: ['How do I start?'] },
    };
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: {
        beta: { type: 'boolean' },
        unsigned: { type: 'object', additionalProperties: false, properties: { pro: { type: 'boolean' } } },
      },
    };
    const doc = (spec: object): string =>
      `apiVersion: docops/v1\nkind: Site\nmetadata: { organization: org-demo }\nspec: ${JSON.stringify(spec)}\n`;
    writeFileSync(join(dir, 'site.yaml'), doc({ title: 'Looks', customization, adaptiveSchema: schema }));
    const put = requestValidator('PUT', `${S}/customization`);
    const putSchema = requestValidator('PUT', `${S}/adaptive-schema`);

    // A new site, then a change on a site customized since (the second body merges into the stored one).
    for (const edit of [
      undefined,
      { styling: { primaryColor: { light: '#0066FF' }, font: 'Lato' }, favicon: {}, footer: { copyright: '© Acme' } },
    ]) {
      if (edit)
        writeFileSync(join(dir, 'site.yaml'), doc({ title: 'Looks', customization: edit, adaptiveSchema: schema }));
      const { desired } = await loadManifests(dir, KINDS, { env: {} });
      const { plan } = await computePlan(base, KINDS, desired);
      const { client, writes } = recording(base);
      const report = await applyPlan(client, plan);
      expect(report.failed).toEqual([]);
      const bodies = writes.filter((w) => w.method === 'PUT' && w.path.endsWith('/customization')).map((w) => w.body);
      expect(bodies).toHaveLength(1);
      for (const body of bodies) expectValid(put, body);
      for (const w of writes.filter((x) => x.path.endsWith('/adaptive-schema'))) expectValid(putSchema, w.body);
      if (!edit) expect(writes.filter((x) => x.path.endsWith('/adaptive-schema'))).toHaveLength(1);
      expect((await computePlan(base, KINDS, desired)).plan.steps).toEqual([]);
    }
  });
});
