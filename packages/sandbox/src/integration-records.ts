/**
 * Integrations published by organizations (management-api.md "Integrations"; the spec's Integration) and their
 * installations. Stored as published: the script and secrets are kept but never answered.
 */
import type { SandboxStore, Table } from './store.js';

export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const;
export const INTEGRATION_CATEGORIES = [
  'analytics',
  'collaboration',
  'content',
  'marketing',
  'visitor-auth',
  'other',
] as const;
export const INTEGRATION_SCOPES = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'conversations:ingest',
  'openapi:read',
  'openapi:write',
] as const;

/** id = the integration's name. */
export interface IntegrationRec {
  id: string;
  orgId: string;
  version: number;
  runtime: 'v1' | 'v2';
  title: string;
  description: string;
  summary?: string;
  /** Preview images as published (base64); answered as URLs of the assets. */
  previewImages: string[];
  hasIcon: boolean;
  target: (typeof INTEGRATION_TARGETS)[number];
  visibility: (typeof INTEGRATION_VISIBILITIES)[number];
  verified: boolean;
  scopes: string[];
  categories: string[];
  /** Blocks, content sources, external links and configurations as published (the spec's shapes). */
  blocks: Record<string, unknown>[];
  contentSources: Record<string, unknown>[];
  externalLinks: { url: string; label: string }[];
  configurations?: Record<string, unknown>;
  contentSecurityPolicy?: string | Record<string, string>;
  script: string;
  secrets: Record<string, string>;
}

/** An installation of an integration in an organization. */
export interface InstallationRec {
  id: string;
  integration: string;
  orgId: string;
  status: 'active' | 'pending' | 'paused';
  externalIds: string[];
  configuration: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export const integrations = (s: SandboxStore): Table<IntegrationRec> => s.table('integrations');
export const installations = (s: SandboxStore): Table<InstallationRec> => s.table('integrationInstallations');
