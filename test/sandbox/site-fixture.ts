/** Helpers for the site tests: create a site and its children over HTTP, read navigation order back. */
import { expect } from 'vitest';
import type { Client, Json } from './helpers.js';

export const SITES = '/orgs/org-demo/sites';
/** The demo seed's spaces. */
export const SPACES = ['sp-getting-started', 'sp-api', 'sp-runbooks', 'sp-changelog'] as const;

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
  return (await listAll(call, `${site}/site-spaces`)).map((s) => `${s.section ?? 'root'}:${s.path}${s.default ? '*' : ''}`);
}

/** A site with sections A (getting-started) and B (api), section ids and their first site spaces. */
export async function siteWithTwoSections(call: Call): Promise<{ path: string; a: Json; b: Json }> {
  const site = await newSite(call, { title: 'Docs' });
  const a = await post(call, `${site.path}/sections`, { spaceId: 'sp-getting-started', title: 'Guides' });
  const b = await post(call, `${site.path}/sections`, { spaceId: 'sp-api', title: 'Reference' });
  return { path: site.path, a, b };
}
