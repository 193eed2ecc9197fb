/**
 * The benchmark as a list of measure modules (run.ts): each measures something, names its headline numbers
 * (the top-level keys of bench/results/latest.json, e.g. `planRatio1k`) and contributes rows to the table in
 * the README. A new measure is a new module in that list; the report only lays out what the modules give.
 */
import type { KindDefinition } from '#src/model/kind.js';
import type { BenchConfig } from './config.js';
import type { BenchSandbox, SandboxRequest } from './sandbox-env.js';

/** One line of the results table. `met` undefined: informational (no target). */
export interface Row {
  measure: string;
  measured: string;
  ratio: string;
  target: string;
  met?: boolean;
}

export interface MeasureOutput {
  /** Headline numbers, merged into the top level of latest.json (a key must be unique across modules). */
  keys: Record<string, number>;
  /** Everything else worth keeping, under latest.json's `<module name>` key. */
  details: unknown;
  /** Spread `details` (an object) at latest.json's top level instead (the steady-state fields, as before issue 14). */
  topLevel?: true;
  rows: Row[];
  /** Plain statements about results that are off target or suspicious. */
  notes: string[];
}

export interface BenchEnv {
  config: BenchConfig;
  kinds: readonly KindDefinition[];
  startSandbox(req: SandboxRequest): Promise<BenchSandbox>;
  log(line: string): void;
}

export interface MeasureModule {
  /** Its key in latest.json (for `details`). */
  name: string;
  run(env: BenchEnv): Promise<MeasureOutput>;
}

export const fmt = (x: number): string => x.toLocaleString('en-US');
export const ms = (x: number): string => `${fmt(Math.round(x))} ms`;
export const ratio2 = (x: number): string => x.toFixed(2);
