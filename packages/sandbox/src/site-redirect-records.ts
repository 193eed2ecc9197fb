/**
 * A site's redirect rules as stored (site-redirects.ts holds what the routes share): apart, so the audit log's
 * object lookup reads the records without the request handling.
 */
import type { SandboxStore, Table } from './store.js';

export type RedirectDestination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string }
  | { kind: 'external'; url: string };

export interface RedirectRec {
  id: string;
  siteId: string;
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  destination: RedirectDestination;
  createdAt: string;
  updatedAt?: string;
}

export const siteRedirects = (s: SandboxStore): Table<RedirectRec> => s.table('siteRedirects');
