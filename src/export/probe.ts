/**
 * Synthetic manifest documents for export. A kind's fetch reads only what its manifests write (Team fetches a
 * team's member list only when `members` is written, a Space its collections only when `parent` is). Export
 * wants everything, so it asks each kind's fetch as if a document wrote every field its spec schema declares:
 * absent properties get an empty value of their schema type. Only the schema is read, never a kind's name.
 */
import { DocopsError } from '../model/errors.js';
import type { DesiredEntry, KindDefinition } from '../model/kind.js';
import type { ManifestDocument } from '../model/document.js';

const EMPTY: Record<string, () => unknown> = { array: () => [], object: () => ({}), string: () => '' };

/** Every property of a spec schema that has a plain array/object/string type, with an empty value of it. */
export function probeSpec(schema: object): Record<string, unknown> {
  const props = (schema as { properties?: Record<string, unknown> }).properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(props)) {
    const t = (raw as { type?: unknown } | null)?.type;
    const types = Array.isArray(t) ? t : typeof t === 'string' ? [t] : [];
    const type = ['array', 'object', 'string'].find((x) => types.includes(x));
    if (type) out[name] = EMPTY[type]!();
  }
  return out;
}

/** A document as the loader would produce it, from a plain `{kind, metadata, spec}` object. */
export function syntheticDocument(
  kind: string,
  org: string,
  spec: Record<string, unknown>,
  index: number,
): ManifestDocument {
  const file = `(export of ${kind} in ${org})`;
  return {
    file,
    index,
    apiVersion: 'docops/v1',
    kind,
    metadata: { organization: org },
    spec,
    pos: () => ({ file, line: 1, column: 1 }),
  };
}

/**
 * Desired entries of `kind` for the given exported specs, each completed with the probe fields it lacks. Problems
 * the kind reports are ignored: these entries only steer what fetch reads, they are never diffed or applied.
 */
export function probeEntries(
  kind: KindDefinition,
  org: string,
  specs: readonly Record<string, unknown>[],
): DesiredEntry[] {
  const probe = probeSpec(kind.schema);
  const out: DesiredEntry[] = [];
  specs.forEach((spec, i) => {
    try {
      out.push(...kind.toDesired(syntheticDocument(kind.kind, org, { ...probe, ...spec }, i), () => {}));
    } catch (err) {
      // Never export a partial org silently: a kind that cannot read its probe is a bug to surface.
      throw new DocopsError(`export: kind ${kind.kind} could not read its probe document: ${(err as Error).message}`, {
        cause: err,
      });
    }
  });
  return out;
}
