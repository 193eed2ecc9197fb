/**
 * `docops plan|apply --config docops.yaml` when the config names `organizations:`: each organization is planned
 * (and applied) on its own — its manifests directory, its token (tokenFile or tokenEnv), its prune and safety —
 * and its output is a section of its own, so a pull request's comment has one section per organization. One
 * organization's failure does not stop the others; the exit code is the worst of them.
 */
import { UsageError, ValidationError } from '../model/errors.js';
import type { DocopsConfig } from '../config/config.js';
import type { OrgConfig } from '../config/organizations.js';
import type { ManifestDocument } from '../model/document.js';
import { escapeMarkdown } from '../render/markdown.js';
import type { CommandContext } from './command.js';
import { reportError } from './report-error.js';

/** The organizations of `--config`, when it names some (the config's loader is imported only with --config). */
export async function configOrganizations(
  ctx: CommandContext,
): Promise<{ config: DocopsConfig; orgs: OrgConfig[] } | undefined> {
  const file = ctx.values.config;
  if (typeof file !== 'string') return undefined;
  const { loadConfig } = await import('../config/load.js');
  const config = await loadConfig(file, {
    env: { ...ctx.io.env, DOCOPS_MANIFESTS: typeof ctx.values.manifests === 'string' ? ctx.values.manifests : '.' },
  });
  if (!config.organizations) return undefined;
  if (typeof ctx.values.manifests === 'string')
    throw new UsageError(
      '-m and the organizations: of --config: each organization names its own manifests directory (drop -m)',
    );
  if (ctx.global.sandbox)
    throw new UsageError(
      '--sandbox runs the one demo organization; it does not go with the organizations: of --config',
    );
  if (typeof ctx.values.out === 'string' || typeof ctx.values.plan === 'string')
    throw new UsageError(
      "--out and --plan save or apply one organization's plan: use -m DIR and --token-file (or DOCOPS_TOKEN) for it",
    );
  return { config, orgs: config.organizations };
}

/**
 * The command's context for one organization: its manifests, its token, its prune (besides --prune). No
 * organization's token variable is left in its environment: a manifest cannot read another's token.
 */
export async function orgContext(ctx: CommandContext, config: DocopsConfig, org: OrgConfig): Promise<CommandContext> {
  const env = withoutTokens(ctx.io.env, config.organizations ?? []);
  // Read here (its file or its variable), so a problem names the field's place in the config; loaded only with
  // --config, like the config's loader.
  const { orgToken } = await import('../config/tokens.js');
  const token = orgToken(ctx.io.env, org, Math.max(0, (config.organizations ?? []).indexOf(org)));
  const prune = Object.entries(org.prune ?? config.prune)
    .filter(([, on]) => on)
    .map(([k]) => k);
  const apiUrl = ctx.global.apiUrl ?? config.apiUrl;
  return {
    ...ctx,
    io: { ...ctx.io, env: { ...env, DOCOPS_TOKEN: token } },
    global: {
      ...ctx.global,
      prune: [...new Set([...ctx.global.prune, ...prune])],
      tokenFile: undefined,
      ...(apiUrl !== undefined ? { apiUrl } : {}),
    },
    values: { ...ctx.values, manifests: org.manifestsDir, config: undefined },
  };
}

/** The environment without DOCOPS_TOKEN and without any organization's token variable. */
export function withoutTokens(
  env: Readonly<Record<string, string | undefined>>,
  orgs: readonly OrgConfig[],
): Record<string, string | undefined> {
  const names = new Set(['DOCOPS_TOKEN', ...orgs.flatMap((o) => (o.tokenEnv !== undefined ? [o.tokenEnv] : []))]);
  return Object.fromEntries(Object.entries(env).filter(([k]) => !names.has(k)));
}

/** Documents that name another organization than this directory's (as the daemon refuses them). */
export function foreignDocuments(org: OrgConfig, documents: readonly ManifestDocument[] | undefined): void {
  const foreign = (documents ?? []).filter((d) => d.metadata.organization !== org.id);
  if (foreign.length === 0) return;
  throw new ValidationError(
    foreign.map((d) => ({
      ...d.pos(['metadata', 'organization']),
      message: `metadata.organization: ${d.metadata.organization} is not the organization of this directory (${org.id})`,
    })),
  );
}

/** The heading of an organization's section. */
export function orgHeading(org: string, format: string): string {
  if (format === 'markdown') return `## Organization \`${escapeMarkdown(org)}\`\n\n`;
  return `=== Organization ${org} ===\n`;
}

/**
 * Runs `one` for every organization in turn, each its section; a failure is reported in its section and the
 * others go on. Returns the worst exit code (1 error > 3 refused > 2 changes > 0).
 */
export async function eachOrganization(
  ctx: CommandContext,
  config: DocopsConfig,
  orgs: OrgConfig[],
  format: string,
  one: (orgCtx: CommandContext, org: OrgConfig) => Promise<number>,
): Promise<number> {
  const codes: number[] = [];
  // JSON: one document, {organizations: [{organization, exitCode, output}]}, each output the command's own JSON.
  const json: { organization: string; exitCode: number; output: unknown }[] = [];
  for (const [i, org] of orgs.entries()) {
    if (format !== 'json') ctx.io.stdout.write((i > 0 ? '\n' : '') + orgHeading(org.id, format));
    let captured = '';
    let code: number;
    try {
      const orgCtx = await orgContext(ctx, config, org);
      code = await one(
        format === 'json'
          ? { ...orgCtx, io: { ...orgCtx.io, stdout: { write: (chunk: string) => (captured += chunk) } } }
          : orgCtx,
        org,
      );
    } catch (err) {
      code = reportError(err, ctx.io, { logger: ctx.logger });
      if (format !== 'json')
        ctx.io.stdout.write(
          format === 'markdown'
            ? `**Failed** (exit ${code}): see the job's log.\n`
            : `failed (exit ${code}): see above\n`,
        );
    }
    codes.push(code);
    if (format === 'json')
      json.push({
        organization: org.id,
        exitCode: code,
        output: captured.trim() === '' ? null : (JSON.parse(captured) as unknown),
      });
  }
  if (format === 'json') ctx.io.stdout.write(JSON.stringify({ organizations: json }, null, 2) + '\n');
  const rank = (c: number): number => [0, 2, 3, 1].indexOf(c);
  return codes.reduce((worst, c) => (rank(c) > rank(worst) ? c : worst), 0);
}
