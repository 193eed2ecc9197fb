/**
 * Issue 33's `evolve` world: the change world (change-world.ts) answered by a newer API (`evolve=P`, the sandbox's
 * evolve.ts), planned and applied once, then measured:
 * - duplicates and deletes no plan asked for (as for every fault);
 * - every unknown field the sandbox planted is still there after the apply (unless the plan deleted its object),
 *   read back through the API: docops's read-modify-writes send them back;
 * - every value outside a spec enum in a field a manifest manages is shown with its raw value in the step that
 *   changes it, in the text, markdown and JSON plans, and the apply fixed it; in a field no manifest manages it is
 *   left as it is, and no request writes it;
 * - the export of the evolved organization validates and plans no change, and says what docops does not know.
 */
import { isDeepStrictEqual } from 'node:util';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evolvedRecords, type EvolvedRec, type SandboxStore } from '@docops/sandbox';
import type { ApiClient } from '../../src/model/api-client.js';
import type { DesiredEntry } from '../../src/model/kind.js';
import type { Plan, Step } from '../../src/model/plan.js';
import type { DesiredState } from '../../src/model/state.js';
import { applyPlan } from '../../src/engine/apply.js';
import { exportOrganization } from '../../src/export/index.js';
import { KINDS } from '../../src/kinds/index.js';
import { UNKNOWN_NOTE } from '../../src/manifests/unknown-values.js';
import { renderPlan } from '../../src/render/index.js';
import { duplicateIdentities } from './every-kind-world.js';
import { afterManifests, beforeManifests, startChangeWorld } from './change-world.js';
import { loadDesired, logPath, planOnce, plannedDeletePaths, tempDir } from '../helpers/pipeline.js';

export interface EvolveOutcome {
  seed: number;
  converged: boolean;
  left: string[];
  failed: string[];
  duplicates: string[];
  unplannedDeletes: string[];
  /** Objects the sandbox evolved (before the plan, and those created by the apply). */
  evolved: number;
  /** Whole-object writes (customization PUTs) docops sent of an evolved object. */
  rmw: number;
  /** Unknown fields checked after the apply, and those lost (`<path> <pointer>`). */
  fields: number;
  lostFields: string[];
  /** Values outside an enum in a managed field: shown raw in every format and fixed. */
  driftShown: number;
  driftProblems: string[];
  /** Values outside an enum in a field no manifest manages: left as they are. */
  unmanagedKept: number;
  unmanagedProblems: string[];
  /** The export of the evolved organization: validation errors and the steps of its plan. */
  exportProblems: string[];
}

const ORG = 'org-demo';

/**
 * The change world's manifests, and a customization change more in "after": the Help Center's primary colour and
 * favicon (an object replaced whole), and the new status page's corners (a customization PUT is a read-modify-write: apply reads the object and sends it
 * back whole with the managed members changed).
 */
export function evolveManifests(): { before: string; after: string } {
  const before = beforeManifests();
  const after = afterManifests(before);
  const site = join(after, 'site.yaml');
  const text = readFileSync(site, 'utf8');
  for (const what of ['primaryColor: { light: "#FF6600" }', 'favicon: { emoji: "📘" }'])
    if (!text.includes(what)) throw new Error(`evolve world: no ${what} to change`);
  // The status page is the file's last document.
  writeFileSync(
    site,
    text
      .replace('primaryColor: { light: "#FF6600" }', 'primaryColor: { light: "#0066FF" }')
      .replace('favicon: { emoji: "📘" }', 'favicon: { emoji: "📙" }') +
      '  customization:\n    styling: { corners: straight }\n',
  );
  return { before, after };
}

export async function evolveOnce(
  seed: number,
  probability = 0.3,
  dirs: { before: string; after: string } = evolveManifests(),
): Promise<EvolveOutcome> {
  const w = await startChangeWorld({}, dirs);
  try {
    w.sandbox.setFaults(`evolve=${probability},seed=${seed}`);
    const store = w.sandbox.store;
    const before = structuredClone(evolvedRecords(store).all());
    const plan = await planOnce(w.client, w.desired, w.options);
    const report = await applyPlan(w.client, plan, { concurrency: 8, sleep: async () => {} });
    const stats = w.sandbox.stats();
    w.sandbox.setFaults(undefined); // the world stays evolved; nothing more evolves
    const next = await planOnce(w.client, w.desired, w.options);
    const allowed = plannedDeletePaths([plan]);
    const all = new Map([...before, ...evolvedRecords(store).all()].map((r) => [r.id, r]));
    const fields = await checkFields(w.client, store, [...all.values()]);
    // Read-modify-writes of an object that had fields docops does not know when it was read.
    const evolvedPaths = new Set([...all.values()].filter((r) => r.byPath).map((r) => r.path));
    const rmw = stats.requests.filter((r) => r.method === 'PUT' && r.status < 300 && evolvedPaths.has(r.path)).length;
    const enums = checkEnums(store, w.desired, plan, before);
    return {
      seed,
      converged: next.steps.length === 0 && next.blocked.length === 0,
      left: next.steps.map((s) => s.id),
      failed: report.failed.map((f) => `${f.stepId}: ${f.message}`),
      duplicates: duplicateIdentities(store),
      unplannedDeletes: stats.requests
        .filter((r) => r.method === 'DELETE' && !allowed.has(r.path))
        .map((r) => `${r.path} (${r.status})`),
      evolved: all.size,
      rmw,
      ...fields,
      ...enums,
      exportProblems: await checkExport(w.client, store),
    };
  } finally {
    await w.close();
  }
}

const ownerExists = (store: SandboxStore, rec: EvolvedRec): boolean =>
  store.table(rec.owner.table).has(rec.owner.rowId);

function valueAt(root: unknown, pointer: string): unknown {
  let v = root;
  for (const k of pointer.split('/').slice(1))
    v = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** Every planted unknown field of an object that still exists, read back through the API (a GET of its path). */
async function checkFields(
  client: ApiClient,
  store: SandboxStore,
  records: readonly EvolvedRec[],
): Promise<{ fields: number; lostFields: string[] }> {
  let fields = 0;
  const lostFields: string[] = [];
  for (const rec of records) {
    const planted = Object.entries(rec.planted.fields);
    if (planted.length === 0 || !ownerExists(store, rec)) continue;
    const answer = await readBack(client, rec);
    for (const [pointer, value] of planted) {
      fields++;
      const now = valueAt(answer, pointer);
      if (!isDeepStrictEqual(now, value)) lostFields.push(`${rec.path} ${pointer}: ${JSON.stringify(now)}`);
    }
  }
  return { fields, lostFields };
}

/** Objects without a GET of one (a site section, a share link): read in their list, by id. */
const LISTED: Record<string, string> = { 'site-section': 'sections', 'share-link': 'share-links' };

async function readBack(client: ApiClient, rec: EvolvedRec): Promise<unknown> {
  const path = rec.path.replace(/^\/v1/, '');
  const [object = '', id] = rec.id.split(':');
  const list = LISTED[object];
  if (list === undefined) return client.get(path);
  const items = await client.listAll<Record<string, unknown>>(
    path.slice(0, path.lastIndexOf(`/${list}/`) + list.length + 1),
  );
  return items.find((x) => x['id'] === id);
}

/** Whether a manifest of the change world manages the evolved enum field of `rec`'s object. */
function managed(store: SandboxStore, desired: DesiredState, rec: EvolvedRec): boolean {
  const e = rec.enum!;
  const row: Record<string, unknown> =
    store.table<Record<string, unknown> & { id: string }>(e.table).get(e.rowId) ?? {};
  const entries = (kind: string): DesiredEntry[] => (desired.get(kind) ?? []).filter((x) => x.org === ORG);
  const writes = (kind: string, key: unknown, field: string): boolean =>
    entries(kind).some((x) => x.key === key && (x.spec as Record<string, unknown>)[field] !== undefined);
  const titleOf = (table: string, id: unknown): unknown => store.table(table).get(String(id))?.['title' as never];
  switch (e.table) {
    case 'orgs':
      return entries('Organization').some((x) => (x.spec as Record<string, unknown>)['defaultRole'] !== undefined);
    case 'members':
      return true; // every member is listed, role and all
    case 'teamMembers':
      return writes('Team', titleOf('teams', row['teamId']), 'members');
    case 'sites':
      return writes('Site', row['title'], 'visibility');
    case 'samlProviders':
      return writes('SamlProvider', row['label'], 'defaultRole');
    case 'collections':
      return entries('Collection').some(
        (x) =>
          (x.spec as Record<string, unknown>)['title'] === row['title'] &&
          (x.spec as Record<string, unknown>)['defaultLevel'] !== undefined,
      );
    case 'contentGrants': {
      const kind = { space: 'Space', collection: 'Collection', site: 'Site' }[String(row['targetType'])] ?? '';
      const table = { Space: 'spaces', Collection: 'collections', Site: 'sites' }[kind] ?? '';
      const title = titleOf(table, row['targetId']);
      return entries(kind).some(
        (x) =>
          (x.spec as Record<string, unknown>)['title'] === title &&
          (x.spec as Record<string, unknown>)['access'] !== undefined,
      );
    }
    default:
      return false; // a space's or a spec's visibility, a site's theme: no manifest writes them
  }
}

/** The steps that write `rec`'s object: a request to its path (a team membership: its team's member list). */
const stepsOf = (plan: Plan, rec: EvolvedRec): Step[] =>
  plan.steps.filter((s) =>
    s.requests.some((r) => {
      const path = logPath(r.path);
      return (
        path === rec.path || (rec.enum?.table === 'teamMembers' && `${path}/${rec.path.split('/').pop()}` === rec.path)
      );
    }),
  );

const holds = (v: unknown, wanted: string): boolean => JSON.stringify(v ?? null).includes(JSON.stringify(wanted));

function checkEnums(
  store: SandboxStore,
  desired: DesiredState,
  plan: Plan,
  records: readonly EvolvedRec[],
): Pick<EvolveOutcome, 'driftShown' | 'driftProblems' | 'unmanagedKept' | 'unmanagedProblems'> {
  const out = { driftShown: 0, driftProblems: [] as string[], unmanagedKept: 0, unmanagedProblems: [] as string[] };
  for (const rec of records) {
    const e = rec.enum;
    if (!e) continue;
    const row = store.table(e.table).get(e.rowId);
    const isManaged = managed(store, desired, rec);
    const now = valueAt(row, e.rowAt);
    const steps = stepsOf(plan, rec);
    if (isManaged) {
      if (row === undefined) continue; // deleted by the plan (deletes are checked apart)
      const shown = steps.filter((s) => holds(s.before, e.value));
      const one: Plan = { ...plan, steps: shown, reported: [], blocked: [] };
      const where = `${rec.path} ${e.bodyAt} ${JSON.stringify(e.value)}`;
      if (shown.length === 0) out.driftProblems.push(`${where}: no step shows it`);
      else
        for (const format of ['text', 'markdown', 'json'] as const)
          if (!renderPlan(one, format).includes(e.value)) out.driftProblems.push(`${where}: not in the ${format} plan`);
      if (now === e.value) out.driftProblems.push(`${where}: still there after the apply`);
      else if (shown.length > 0) out.driftShown++;
    } else {
      const writes = steps.filter((s) => s.requests.some((r) => valueAt(r.body, e.bodyAt) !== undefined));
      if (row !== undefined && now !== e.value)
        out.unmanagedProblems.push(`${rec.path} ${e.bodyAt}: ${JSON.stringify(e.value)} became ${JSON.stringify(now)}`);
      else if (writes.length > 0) out.unmanagedProblems.push(`${rec.path} ${e.bodyAt}: written by ${writes[0]!.id}`);
      else if (row !== undefined) out.unmanagedKept++;
    }
  }
  return out;
}

/**
 * Export the organization as it is now, load it like `validate` and plan it: no error and no step. Every value
 * outside an enum still live must be in the exported text beside the note that docops does not know it.
 */
/** The tables whose evolved enum field export writes (a space's and a spec's visibility are no manifest's). */
const EXPORTED = new Set([
  'orgs',
  'members',
  'teamMembers',
  'sites',
  'samlProviders',
  'collections',
  'contentGrants',
  'siteCustomizations',
]);

async function checkExport(client: ApiClient, store: SandboxStore): Promise<string[]> {
  const out = tempDir('evolve-export');
  const problems: string[] = [];
  try {
    await exportOrganization(client, KINDS, ORG, out);
    const plan = await planOnce(client, await loadDesired(out));
    problems.push(
      ...plan.steps.map((s) => `export plans ${s.id}`),
      ...plan.blocked.map((b) => `export blocks ${b.key}`),
    );
  } catch (err) {
    problems.push(`export: ${(err as Error).message.slice(0, 2000)}`);
  }
  const text = readdirSync(out, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => readFileSync(join(out, f), 'utf8'))
    .join('\n');
  // Each value is in a comment (the note, or the field commented out below it), and the file has the note.
  const unknownLines = text.includes(UNKNOWN_NOTE) ? text.split('\n').filter((l) => l.trim().startsWith('#')) : [];
  for (const rec of evolvedRecords(store).all()) {
    if (rec.byPath && ownerExists(store, rec))
      for (const pointer of Object.keys(rec.fields)) {
        const name = pointer.split('/').pop()!;
        if (!unknownLines.some((l) => l.includes(name)))
          problems.push(`export does not say it does not know ${rec.path} ${pointer}`);
      }
    const e = rec.enum;
    const row = e && EXPORTED.has(e.table) ? store.table(e.table).get(e.rowId) : undefined;
    if (!e || !row || valueAt(row, e.rowAt) !== e.value) continue;
    if (!unknownLines.some((l) => l.includes(e.value)))
      problems.push(`export does not say it does not know ${rec.path} ${e.bodyAt} ${e.value}`);
  }
  return problems;
}
