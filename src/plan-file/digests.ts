/**
 * The three things a saved plan pins, each as a SHA-256 digest plus enough detail to say what changed:
 * the manifest files (per file), the live objects the plan's steps touch (per object), and the steps themselves.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../model/errors.js';
import type { LiveObject } from '../model/kind.js';
import { pathSegments, type Plan, type Step } from '../model/plan.js';
import type { LiveState } from '../model/state.js';
import { findManifestFiles } from '../manifests/discover.js';
import { canonicalJson, digest } from './canonical.js';

export interface ManifestsDigest {
  /** sha256 over the sorted files' relative paths and contents. */
  checksum: string;
  /** Relative path (with `/`) → sha256 of its content. */
  files: Record<string, string>;
}

export async function manifestsDigest(dir: string): Promise<ManifestsDigest> {
  let rels: string[];
  try {
    rels = await findManifestFiles(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // The loader's words for the same mistake (src/manifests/load.ts): `plan --out` digests before it loads.
    if (code === 'ENOENT') throw new UsageError(`manifests directory ${dir} does not exist`);
    if (code === 'ENOTDIR') throw new UsageError(`${dir} is not a directory`);
    throw new UsageError(`cannot read manifests directory ${dir}: ${code ?? (err as Error).message}`);
  }
  const files: Record<string, string> = {};
  // The checksum is sha256 of the files' `rel NUL base64(content)` joined by NUL, fed to the hash a slice at a
  // time: neither a base64 copy of a whole file (a spec may be 25 MiB) nor a string of all files is ever held.
  const whole = createHash('sha256');
  for (const [i, rel] of rels.entries()) {
    const content = await readFile(path.join(dir, rel));
    files[rel] = digest(content);
    whole.update(`${i > 0 ? '\u0000' : ''}${rel}\u0000`);
    for (let at = 0; at < content.length; at += BASE64_SLICE)
      whole.update(content.subarray(at, at + BASE64_SLICE).toString('base64'));
  }
  return { checksum: `sha256:${whole.digest('hex')}`, files };
}

/** Bytes base64-encoded at a time: a multiple of 3, so the slices' encodings concatenate to the whole's. */
const BASE64_SLICE = 3 * 256 * 1024;

/** Files added, removed or edited between two digests, sorted. */
export function changedFiles(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => before[n] !== after[n]).sort();
}

export interface LiveDigest {
  /** sha256 over the sorted per-object digests. */
  fingerprint: string;
  /** `Kind org/key` → sha256 of the normalised live object (kind, org, key, id, fields), or `absent`. */
  objects: Record<string, string>;
}

export const ABSENT = 'absent';

/** How an object is named in a saved plan and in stale-plan messages: `Team org-demo/Platform`. */
export const objectLabel = (kind: string, org: string, key: string): string => `${kind} ${org}/${key}`;

/**
 * The live objects each step touches: the object with the step's (kind, org, key), or `key (id)` for
 * duplicate titles, or one of that kind and org whose id is a segment of one of the step's request paths
 * (a rename by pinned id). A step that touches nothing live (a create) pins that its object is still absent,
 * so an object created meanwhile under that name also makes the plan stale.
 */
export function liveDigest(plan: Plan, live: LiveState): LiveDigest {
  const find = touchedObjects(live);
  const objects: Record<string, string> = {};
  for (const step of plan.steps) {
    const found = find(step);
    if (found.length === 0) {
      const label = objectLabel(step.kind, step.org, step.key);
      objects[label] ??= ABSENT;
    }
    for (const o of found)
      objects[objectLabel(o.kind, o.org, o.key)] = digest(
        canonicalJson({ kind: o.kind, org: o.org, key: o.key, id: o.id, fields: o.fields }),
      );
  }
  const sorted = Object.keys(objects).sort();
  return {
    fingerprint: digest(canonicalJson(sorted.map((k) => [k, objects[k]]))),
    objects: Object.fromEntries(sorted.map((k) => [k, objects[k]!])),
  };
}

/** Objects whose digest differs (or that appeared or disappeared), sorted. */
export function changedObjects(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => (before[n] ?? ABSENT) !== (after[n] ?? ABSENT)).sort();
}

function touchedObjects(live: LiveState): (step: Step) => LiveObject[] {
  const byKey = new Map<string, LiveObject[]>();
  const byScope = new Map<string, LiveObject[]>();
  const k = (...parts: string[]): string => parts.join('\u0000');
  const seen = new Set<string>();
  const push = (m: Map<string, LiveObject[]>, key: string, o: LiveObject): void => {
    const once = k(key, o.key, o.id);
    if (seen.has(once)) return;
    seen.add(once);
    const list = m.get(key);
    if (list) list.push(o);
    else m.set(key, [o]);
  };
  for (const state of live.values()) {
    for (const o of state.objects) {
      push(byKey, k(o.kind, o.org, o.key), o);
      push(byKey, k(o.kind, o.org, `${o.key} (${o.id})`), o);
      push(byScope, k(o.kind, o.org), o);
    }
  }
  return (step) => {
    const out = new Map<string, LiveObject>();
    for (const o of byKey.get(k(step.kind, step.org, step.key)) ?? []) out.set(`${o.key}\u0000${o.id}`, o);
    const segments = pathSegments(step);
    for (const o of byScope.get(k(step.kind, step.org)) ?? [])
      if (o.id !== '' && segments.has(o.id)) out.set(`${o.key}\u0000${o.id}`, o);
    return [...out.values()];
  };
}

/** sha256 of the canonical JSON of the plan's steps. */
export function planChecksum(plan: Plan): string {
  return digest(canonicalJson(plan.steps));
}
