/** Helpers for the site tests: create a site and its children over HTTP, read navigation order back. */
import { expect } from 'vitest';
import type { Client, Json } from './helpers.js';

export const SITES = '/orgs/org-demo/sites';

type Call = Client['call'];

/** Create a site (201 asserted); returns its id and the API path below /v1. */
export async function newSite(call: Call, body: Json = {}): Promise<{ id: string; path: string; body: Json }> {
  const res = await call('POST', SITES, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, path: `${SITES}/${res.body.id}`, body: res.body };
}

/** POST expecting 201; returns the body. */
export async function post(call: Call, path: string, body: Json): Promise<Json> {
  const res = await call('POST', path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Every item of a list (all pages, 1000 at a time). */
export async function listAll(call: Call, path: string): Promise<Json[]> {
  const items: Json[] = [];
  let page: string | undefined;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await call('GET', `${path}${sep}limit=1000${page ? `&page=${encodeURIComponent(page)}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    items.push(...res.body.items);
    page = res.body.next?.page;
  } while (page);
  return items;
}

export const ids = (items: Json[]): string[] => items.map((x) => x.id);

/** Site spaces as `section:path` (or `root:path`) in list order. */
export async function spaceLayout(call: Call, site: string): Promise<string[]> {
  return (await listAll(call, `${site}/site-spaces`)).map(
    (s) => `${s.section ?? 'root'}:${s.path}${s.default ? '*' : ''}`,
  );
}

/** A site with sections A (getting-started) and B (api), section ids and their first site spaces. */
export async function siteWithTwoSections(call: Call): Promise<{ path: string; a: Json; b: Json }> {
  const site = await newSite(call, { title: 'Docs' });
  const a = await post(call, `${site.path}/sections`, { spaceId: 'sp-getting-started', title: 'Guides' });
  const b = await post(call, `${site.path}/sections`, { spaceId: 'sp-api', title: 'Reference' });
  return { path: site.path, a, b };
}

/** Ids of the site the contract check builds (buildContractSite). */
export interface ContractSite {
  site: string;
  a: string;
  b: string;
  /** A second top-level section. */
  c: string;
  group: string;
  /** Section A's first (default) site space. */
  aFirst: string;
  extra: string;
  link: string;
}

/**
 * A published site exercising every optional field: proxy, basename, a default section A (with the former
 * root site space and an extra one with a condition), a section B inside group G, a section C, a share link, adaptive claims.
 */
export async function buildContractSite(call: Call, publish: (siteId: string) => void): Promise<ContractSite> {
  const site = await newSite(call, { title: 'Docs', spaces: ['sp-changelog'] });
  const a = await post(call, `${site.path}/sections`, { spaceId: 'sp-getting-started', title: 'Guides', icon: 'book' });
  const b = await post(call, `${site.path}/sections`, { spaceId: 'sp-api' });
  const group = await post(call, `${site.path}/section-groups`, {
    title: 'Reference',
    icon: 'folder',
    sections: [b.id],
  });
  const c = await post(call, `${site.path}/sections`, { spaceId: 'sp-api', title: 'API v2' });
  const extra = await post(call, `${site.path}/site-spaces`, { spaceId: 'sp-runbooks', sectionId: a.id });
  const link = await post(call, `${site.path}/share-links`, { name: 'Partners' });
  const patches: [string, Json][] = [
    [site.path, { basename: 'docs', proxy: 'acme.test/docs', adaptiveContent: { enabled: true } }],
    [`${site.path}/sections/${a.id}`, { condition: 'visitor.claims.isBeta === true', description: 'How-to guides' }],
    [`${site.path}/site-spaces/${extra.id}`, { condition: 'true' }],
  ];
  for (const [path, body] of patches) expect((await call('PATCH', path, body)).status).toBe(200);
  publish(site.id);
  return {
    site: site.id,
    a: a.id,
    b: b.id,
    c: c.id,
    group: group.id,
    aFirst: a.siteSpaces[0].id,
    extra: extra.id,
    link: link.id,
  };
}
