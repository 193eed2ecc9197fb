/** A parsed manifest document, as produced by the loader (src/manifests/load.ts). */
import type { SourcePos } from './errors.js';

/**
 * `D` is the type of `spec`: any object as parsed; a kind's toDesired gets its documents typed with the spec type
 * generated from its schema, which they passed (KindDefinition.toDesired).
 */
export interface ManifestDocument<D = Record<string, unknown>> {
  file: string;
  /** 0-based index of the document inside its file. */
  index: number;
  apiVersion: string;
  kind: string;
  metadata: { organization: string; [k: string]: unknown };
  /** Top-level `prune: true` beside `kind`: delete live objects of this kind no manifest mentions. */
  prune?: boolean;
  /**
   * Top-level `allowEmpty: true`: a plan may delete every entry of a list this document writes (its `access:`, a
   * team's `members`, a site's `sections` …), which the safety gate otherwise refuses (docs/safety.md).
   */
  allowEmpty?: boolean;
  spec: D;
  /** Position of a node inside this document, by path (e.g. ['spec','members',3,'email']); falls back to the nearest parent. */
  pos(path: (string | number)[]): SourcePos;
}
