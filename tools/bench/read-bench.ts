/**
 * Informational: CPU of reading the CPU benchmark's organization from YAML files, as `docops plan` does before
 * it diffs — parse (with source positions) + validate (`loadManifests`). Written to a temp dir first
 * (unmeasured), read cold. Not a target of issue 8 (its validate starts from parsed documents), but what a
 * user of a large organization waits for.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KindDefinition } from '#src/model/kind.js';
import { loadManifests } from '#src/manifests/load.js';
import { orgDocuments, splitMembers, writeManifests } from './documents.js';
import { generateOrg, type OrgSizes } from './org-model.js';

/** Members per file: ~1 MiB of YAML, well under the 2 MiB file limit. */
export const MEMBERS_PER_FILE = 20_000;

export interface ReadMeasure {
  files: number;
  bytes: number;
  entries: number;
  cpuMs: number;
  wallMs: number;
}

export async function measureRead(sizes: OrgSizes, kinds: readonly KindDefinition[]): Promise<ReadMeasure> {
  const dir = await mkdtemp(join(tmpdir(), 'docops-read-bench-'));
  try {
    const files = splitMembers(orgDocuments(generateOrg(sizes), new Set(kinds.map((k) => k.kind))), MEMBERS_PER_FILE);
    await writeManifests(dir, files);
    const t = performance.now();
    const start = process.cpuUsage();
    const { desired } = await loadManifests(dir, kinds);
    const d = process.cpuUsage(start);
    const wallMs = performance.now() - t;
    let bytes = 0;
    for (const name of files.keys()) bytes += (await stat(join(dir, name))).size;
    return {
      files: files.size,
      bytes,
      entries: [...desired.values()].reduce((n, l) => n + l.length, 0),
      cpuMs: (d.user + d.system) / 1000,
      wallMs,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
