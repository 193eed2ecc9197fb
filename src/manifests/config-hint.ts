/**
 * A daemon config (docops.yaml) handed over as a manifest — `-m` pointed at the directory holding the config,
 * or at the config itself — would fail with a list of envelope errors that hide the real mistake. Say what
 * the file is and where the manifests it names are instead.
 */
import path from 'node:path';
import type { ValidationIssue } from '../core/errors.js';
import type { ParsedYamlDoc } from './parse.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The issue for a document shaped like a daemon config (a `manifests` string, no apiVersion or kind), else undefined. */
export function daemonConfigIssue(p: ParsedYamlDoc): ValidationIssue | undefined {
  const v = p.value;
  if (!isObject(v) || 'apiVersion' in v || 'kind' in v || typeof v.manifests !== 'string') return undefined;
  // Relative to the config file, as the daemon reads it; shown relative to the working directory.
  const dir = path.resolve(path.dirname(p.file), v.manifests);
  const shown = path.relative(process.cwd(), dir) || '.';
  const named = shown.startsWith('..') || path.isAbsolute(shown) ? dir : shown;
  return {
    ...p.pos(['manifests']),
    message: `this is a docops daemon config, not a manifest: the manifests it names are in ${named.split(path.sep).join('/')} (validate them with -m ${named.split(path.sep).join('/')})`,
    path: '/manifests',
  };
}
