/**
 * A strict parser of the Prometheus text exposition format (0.0.4), enough to check /metrics: every line is
 * a HELP/TYPE comment, blank, or a sample `name{label="value",…} value [timestamp]`; anything else throws.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface ParsedMetrics {
  samples: Sample[];
  /** Metric family name → type, from # TYPE lines. */
  types: Map<string, string>;
  /** The value of the one sample with this name whose labels include `labels`; throws when not exactly one. */
  value(name: string, labels?: Record<string, string>): number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`;
const VALUE = '(?:[+-]?(?:\\d+\\.?\\d*(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?)|[+-]?Inf|NaN)';
const SAMPLE_RE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? (${VALUE})(?: -?\\d+)?$`);
const HELP_RE = new RegExp(`^# HELP (${NAME}) .*$`);
const TYPE_RE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const LABEL_RE = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/g;

export function parsePrometheus(text: string): ParsedMetrics {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  text.split('\n').forEach((line, i) => {
    if (line === '') return;
    if (line.startsWith('#')) {
      const type = TYPE_RE.exec(line);
      if (type) types.set(type[1]!, type[2]!);
      else if (!HELP_RE.test(line)) throw new Error(`line ${i + 1} is not a HELP/TYPE comment: ${line}`);
      return;
    }
    const m = SAMPLE_RE.exec(line);
    if (!m) throw new Error(`line ${i + 1} is not a sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL_RE))
      labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
    const raw = m[3]!;
    const value = raw.endsWith('Inf') ? (raw.startsWith('-') ? -Infinity : Infinity) : Number(raw);
    samples.push({ name: m[1]!, labels, value });
  });
  return {
    samples,
    types,
    value(name, labels = {}) {
      const found = samples.filter(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      );
      if (found.length !== 1)
        throw new Error(`expected one sample ${name}${JSON.stringify(labels)}, found ${found.length}`);
      return found[0]!.value;
    },
  };
}
