/**
 * The no-I/O benchmark: CPU time of validate (envelope + schema + toDesired + crossValidate + duplicates,
 * i.e. the loader after YAML parsing) and diff + order for a large organization whose desired and live
 * state are built in memory. The live state comes from the kinds' real fetch code reading in-memory lists.
 */
import { fork } from 'node:child_process';
import { ValidationError } from '../core/errors.js';
import type { DesiredEntry, KindDefinition, Report } from '../core/kind.js';
import { diffAll, fetchLive } from '../core/reconcile.js';
import type { ManifestDocument } from '../manifests/document.js';
import { findDuplicates } from '../manifests/duplicates.js';
import { checkEnvelope } from '../manifests/envelope.js';
import type { ParsedYamlDoc } from '../manifests/parse.js';
import { validateWithSchema } from '../manifests/schema.js';
import { orgDocuments } from './documents.js';
import { memoryClient } from './live-items.js';
import { entityCounts, ENTITY_KIND, generateOrg, type OrgSizes } from './org-model.js';

export interface CpuMeasure {
  entities: number;
  entityCounts: Record<string, number>;
  documents: number;
  /** user + system CPU of validate + diff + order. */
  cpuMs: number;
  validateCpuMs: number;
  diffCpuMs: number;
  wallMs: number;
  /** CPU of building the live state through the kinds' fetch (not part of the target). */
  liveBuildCpuMs: number;
  /** Peak resident set size of the whole process (KiB from getrusage → MB). */
  peakRssMb: number;
  steps: number;
}

const cpuMsSince = (start: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};

/** The loader's steps after parsing, on documents that are already plain data. */
function validate(parsed: readonly ParsedYamlDoc[], kinds: readonly KindDefinition[]): Map<string, DesiredEntry[]> {
  const byName = new Map(kinds.map((k) => [k.kind, k]));
  const issues: { file: string; line: number; column: number; message: string }[] = [];
  const report: Report = (pos, message) => issues.push({ ...pos, message });
  const desired = new Map<string, DesiredEntry[]>(kinds.map((k) => [k.kind, []]));
  for (const p of parsed) {
    const env = checkEnvelope(p, byName);
    issues.push(...env.issues);
    if (!env.kind || !env.spec || !env.doc) continue;
    const specIssues = validateWithSchema(env.spec, env.kind.schema, (path) => p.pos(['spec', ...path]), 'spec');
    issues.push(...specIssues);
    if (specIssues.length > 0) continue;
    const doc: ManifestDocument = env.doc;
    desired.get(doc.kind)!.push(...env.kind.toDesired(doc, report));
  }
  for (const k of kinds) k.crossValidate?.(desired.get(k.kind)!, desired, report);
  issues.push(...findDuplicates([...desired.values()].flat()));
  if (issues.length > 0) throw new ValidationError(issues);
  return desired;
}

export async function measureCpu(sizes: OrgSizes, kinds: readonly KindDefinition[]): Promise<CpuMeasure> {
  const org = generateOrg(sizes);
  const names = new Set(kinds.map((k) => k.kind));
  const files = orgDocuments(org, names);
  const parsed: ParsedYamlDoc[] = [...files].flatMap(([file, docs]) =>
    docs.map((value, index) => {
      const at = { file, line: index + 1, column: 1 };
      return { file, index, value: structuredClone(value), pos: () => at, keyPos: () => at };
    }),
  );
  // Only entities of registered kinds are validated and diffed.
  const counts = Object.fromEntries(Object.entries(entityCounts(org)).filter(([what]) => names.has(ENTITY_KIND[what] ?? '')));
  const client = memoryClient(org);

  // Measured cold, as one `docops plan` run is: validate, then (unmeasured) the live state through the same
  // fetch code a real plan runs, then diff + order.
  let wallMs = 0;
  let t = performance.now();
  const start = process.cpuUsage();
  const desired = validate(parsed, kinds);
  const validateCpuMs = cpuMsSince(start);
  wallMs += performance.now() - t;

  const liveStart = process.cpuUsage();
  const live = await fetchLive(client, kinds, desired);
  const liveBuildCpuMs = cpuMsSince(liveStart);

  t = performance.now();
  const diffStart = process.cpuUsage();
  const plan = diffAll(kinds, desired, live);
  const diffCpuMs = cpuMsSince(diffStart);
  wallMs += performance.now() - t;
  const cpuMs = validateCpuMs + diffCpuMs;

  return {
    entities: Object.values(counts).reduce((a, b) => a + b, 0),
    entityCounts: counts,
    documents: parsed.length,
    cpuMs,
    validateCpuMs,
    diffCpuMs,
    wallMs,
    liveBuildCpuMs,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    steps: plan.steps.length,
  };
}

/** Run measureCpu in a fresh child process (dist/bench/cpu-child.js), so peak RSS is not the parent's. */
export async function measureCpuInChild(sizes: OrgSizes): Promise<CpuMeasure> {
  const child = fork(new URL('./cpu-child.js', import.meta.url), [JSON.stringify(sizes)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise<CpuMeasure>((resolve, reject) => {
    let result: CpuMeasure | undefined;
    child.once('message', (m) => (result = m as CpuMeasure));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`CPU benchmark child exited with code ${code} and no result`))));
  });
}
