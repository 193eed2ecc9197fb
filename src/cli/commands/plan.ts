/** `docops plan`: compute what apply would change and print it; never writes to the API. */
import { BlockedError, EXIT } from '../../model/errors.js';
import { createSavedPlan, inputsDigest, manifestsDigest, renderSavedPlan } from '../../plan-file/index.js';
import { shouldColor } from '../../render/ansi.js';
import { planScopes } from '../../scopes/needs.js';
import { redactCredentials } from '../../secrets.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { CONFIG_FLAG, configFromFlag } from '../config-file.js';
import type { DesiredState } from '../../model/state.js';
import { configOrganizations, eachOrganization, foreignDocuments } from '../organizations.js';
import { requireCredentials } from '../connect.js';
import { stdoutIsTTY } from '../io.js';
import { LATENCY_FLAG, markdownPlan, planCost, renderPlanOutput, stepSummary } from '../plan-output.js';
import { ALLOW_ENV_FLAG, MANIFESTS_FLAG, manifestDir } from '../pipeline.js';
import { planFromManifests } from '../plan-run.js';
import { POLICY_FLAG, cliPolicy, policyDigest, policyReport } from '../policy.js';
import { BROKEN_LINKS_FLAGS, brokenLinksCheck, checkBrokenLinksFlags } from '../broken-links.js';
import { FORMAT_FLAG, planFormat } from './format-flag.js';

export const planCommand: CommandSpec = {
  name: 'plan',
  usage:
    'docops plan -m DIR [--format text|markdown|json] [--out FILE] [--detailed-exitcode] [--fail-on broken-links] [flags]',
  description:
    'Loads the manifests, reads the live state through the API and prints the plan: what apply would create,\n' +
    'update and delete, field by field, and its API cost (requests and an estimated duration). Nothing is\n' +
    'written, so a read-only token is enough. With --out the plan is saved for `docops apply --plan FILE`,\n' +
    'which applies exactly these steps, or refuses if the manifests or the live objects changed meanwhile.\n' +
    'With --detailed-exitcode the exit code is 2 when there are changes, so CI can tell "in sync" from\n' +
    '"drifted". A plan that cannot reach some manifest objects (e.g. a reference that names nothing) lists\n' +
    'them as blocked and exits 1. In GitHub Actions the markdown plan is also appended to the job summary.\n' +
    'With --policy the plan also lists the policy rules that fired on which manifest lines, and for a plan that\n' +
    'needs approval its approval checksum and who may approve (docs/policy.md). --format json follows\n' +
    'schemas/plan.schema.json.\n' +
    'With --fail-on broken-links it also reads the broken links of each managed space (one request per space),\n' +
    'lists them after the plan and exits 1 when one is new: not in --broken-links-baseline FILE, which an earlier\n' +
    'run wrote with --broken-links-out FILE (without a baseline, every broken link is new).',
  flags: {
    manifests: MANIFESTS_FLAG,
    'allow-env': ALLOW_ENV_FLAG,
    format: FORMAT_FLAG,
    'detailed-exitcode': { type: 'boolean', description: 'Exit 2 when the plan has changes (0 when none, 1 on error)' },
    out: {
      type: 'string',
      value: 'FILE',
      description: 'Save the plan (with checksums and cost) to FILE for `docops apply --plan FILE`',
    },
    config: {
      ...CONFIG_FLAG,
      description:
        "A docops.yaml: its kinds' ownership modes (`kinds:`) and `policy:`; with organizations: plan each one (its manifests, its token) in a section of its own",
    },
    'latency-ms': LATENCY_FLAG,
    policy: POLICY_FLAG,
    ...BROKEN_LINKS_FLAGS,
  },
  examples: [
    'docops plan -m manifests',
    'DOCOPS_TOKEN=… docops plan -m manifests --format markdown > plan.md',
    'docops plan -m manifests --out plan.json && docops apply -m manifests --plan plan.json',
    'docops plan -m config.example/manifests --sandbox --detailed-exitcode',
    'docops plan -m manifests --format json --prune Team | jq .steps',
    'docops plan -m manifests --policy policies/ --format markdown   # with the rules a policy fired',
    'docops plan --config docops.yaml --format markdown > plan.md     # organizations: one section each',
    'docops plan -m manifests --broken-links-out links.json              # on main: the broken links known',
    'docops plan -m manifests --fail-on broken-links --broken-links-baseline links.json   # on a PR',
  ],
  async run(ctx) {
    const fleet = await configOrganizations(ctx);
    if (!fleet) return planOne(ctx);
    // One section per organization, each planned with its own token (src/cli/organizations.ts).
    return eachOrganization(ctx, fleet.config, fleet.orgs, planFormat(ctx), (orgCtx, org) =>
      planOne(orgCtx, (d) => foreignDocuments(org, d.documents)),
    );
  },
};

async function planOne(ctx: CommandContext, check?: (desired: DesiredState) => void): Promise<number> {
  const format = planFormat(ctx);
  checkBrokenLinksFlags(ctx);
  const out = ctx.values.out;
  // Digest the files before they are read for the plan: an edit made while planning then makes the plan stale.
  requireCredentials(ctx);
  // A bad policy fails before anything is read, like bad manifests (--policy, or the policy: of --config).
  const policy = await cliPolicy(ctx, (await configFromFlag(ctx))?.policy);
  const manifests =
    typeof out === 'string' ? await manifestsDigest(manifestDir(ctx)) : await policyDigest(policy, manifestDir(ctx));
  const planned = await planFromManifests(ctx, check);
  const { plan, live, reads, client, kinds, modes } = planned;
  const cost = planCost(ctx, plan, client);
  const scopes = planScopes(plan, reads);
  const verdict =
    policy && manifests
      ? await policyReport(policy, { plan, live, manifests, manifestsDir: manifestDir(ctx), kinds })
      : undefined;
  ctx.io.stdout.write(
    renderPlanOutput(plan, format, {
      color: shouldColor({ isTTY: stdoutIsTTY(ctx.io) }, ctx.io.env),
      cost,
      scopes,
      ...(verdict ? { policy: verdict } : {}),
    }),
  );
  await stepSummary(ctx, () => markdownPlan(plan, cost, scopes, verdict));
  if (typeof out === 'string' && manifests) {
    const saved = createSavedPlan({
      plan,
      live,
      manifests,
      inputs: inputsDigest(planned.inputs),
      cost,
      options: { prune: ctx.global.prune, invite: ctx.global.invite, modes },
    });
    // A registered credential in the plan (a manifest value that is the token) never reaches the file; such a
    // file then fails its checksum at apply --plan instead of applying a redacted value. A payload secret (a
    // certificate) stays: it is what apply must send, and the printed plans show only its fingerprint.
    const { writeNamedFile } = await import('../../write-inside.js'); // only with --out
    await writeNamedFile(out, redactCredentials(renderSavedPlan(saved)));
    ctx.logger.info({ file: out, steps: plan.steps.length }, 'plan saved');
  }
  await brokenLinksCheck(ctx, planned, format);
  // A plan that cannot reach the manifests is a failure whatever else it holds (never "no changes").
  if (plan.blocked.length > 0) throw new BlockedError(plan.blocked);
  return ctx.values['detailed-exitcode'] === true && plan.steps.length > 0 ? EXIT.changesPending : EXIT.ok;
}
