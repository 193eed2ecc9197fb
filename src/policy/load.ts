/**
 * Reading a policy: rules from policy files (one file, or every *.yaml / *.yml below a folder) and/or inline in
 * docops.yaml (`policy.rules`). Every problem is a ValidationIssue at its file:line:column, like a manifest's: the
 * YAML, the shape (schemas/policy.schema.json), a `when` that is not valid CEL (pointing into the expression), two
 * rules with one name, policy files naming different approvers. A configured policy that loads no rule is an
 * error, never a pass.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError, ValidationError, type SourcePos, type ValidationIssue } from '../model/errors.js';
import { displayPath, findManifestFiles } from '../manifests/discover.js';
import { parseYamlFile } from '../manifests/parse.js';
import type { DocPath } from '../manifests/paths.js';
import { validateWithSchema, type Locate } from '../manifests/schema.js';
import { loadCel, type Cel } from './cel.js';
import type { LoadedPolicy, LoadedRule } from './evaluate.js';
import type { Approvers, Outcome } from './model.js';
import { positionInScalar } from './scalar-pos.js';
import { policySchemas as schemas } from './schemas.js';

/** Rules written in one YAML document: the file's text (for positions inside expressions) and its locators. */
export interface RuleSource {
  file: string;
  text: string;
  /** The rules list itself (schema-checked by the caller). */
  rules: unknown;
  /** Where the rules list sits in its document, e.g. ['rules'] or ['policy', 'rules']. */
  at: DocPath;
  pos: Locate;
  keyPos: Locate;
  approvers?: { value: unknown; at: DocPath };
}

interface Part {
  rules: LoadedRule[];
  /**
   * Every rule's name where it is written, the rules with other problems included: a name is unique whatever else
   * is wrong with either rule (every problem in one run).
   */
  names: { name: string; source: SourcePos }[];
  approvers: { value: Approvers; pos: SourcePos }[];
  issues: ValidationIssue[];
}

/** Rules of one document → compiled rules and issues (shape problems are left to the schema the caller checked). */
function compileRules(src: RuleSource, cel: Cel): Part {
  const part: Part = { rules: [], names: [], approvers: [], issues: [] };
  if (!Array.isArray(src.rules)) return part;
  src.rules.forEach((raw: unknown, i) => {
    if (typeof raw !== 'object' || raw === null) return;
    const r = raw as Record<string, unknown>;
    const at = [...src.at, i];
    if (typeof r.name === 'string') part.names.push({ name: r.name, source: src.pos([...at, 'name']) });
    if (
      typeof r.when !== 'string' ||
      typeof r.name !== 'string' ||
      typeof r.message !== 'string' ||
      typeof r.outcome !== 'string'
    )
      return;
    const whenPos = src.pos([...at, 'when']);
    const compiled = cel.compile(r.when);
    if (!compiled.ok) {
      part.issues.push({
        ...positionInScalar(src.text, whenPos, r.when, compiled.offset),
        message: `rule ${r.name}: when: ${compiled.message}`,
      });
      return;
    }
    part.rules.push({
      name: r.name,
      when: r.when,
      outcome: r.outcome as Outcome,
      message: r.message,
      source: src.pos([...at, 'name']),
      whenSource: whenPos,
      compiled: compiled.rule,
    });
  });
  if (src.approvers && typeof src.approvers.value === 'object' && src.approvers.value !== null) {
    const team = (src.approvers.value as { githubTeam?: unknown }).githubTeam;
    if (typeof team === 'string') part.approvers.push({ value: { githubTeam: team }, pos: src.pos(src.approvers.at) });
  }
  return part;
}

/** Inline rules (docops.yaml `policy.rules`, `policy.approvers`): their shape is checked here, with positions. */
export async function inlinePolicyPart(src: RuleSource): Promise<Part> {
  const s = schemas();
  const prefix = src.at.join('.');
  const issues = validateWithSchema(
    src.rules,
    s.list,
    (p) => src.pos([...src.at, ...p]),
    prefix,
    (p) => src.keyPos([...src.at, ...p]),
  );
  if (src.approvers) {
    const a = src.approvers;
    issues.push(
      ...validateWithSchema(
        a.value,
        s.approvers,
        (p) => src.pos([...a.at, ...p]),
        a.at.join('.'),
        (p) => src.keyPos([...a.at, ...p]),
      ),
    );
  }
  const part = compileRules(src, await loadCel());
  return { ...part, issues: [...issues, ...part.issues] };
}

/** A policy file, or every policy file below a folder. */
export async function policyPathPart(target: string): Promise<Part> {
  let isDir: boolean;
  try {
    isDir = (await stat(target)).isDirectory();
  } catch (err) {
    throw new UsageError(
      `cannot read policy ${target}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const files = isDir
    ? (await findManifestFiles(target)).map((rel) => ({
        full: path.join(target, rel),
        shown: displayPath(target, rel),
      }))
    : [{ full: target, shown: target }];
  if (files.length === 0)
    throw new UsageError(
      `policy ${target}: the folder holds no policy file (*.yaml, *.yml); a configured policy that loads no rule is an error, never a pass`,
    );
  const cel = await loadCel();
  const all: Part = { rules: [], names: [], approvers: [], issues: [] };
  for (const { full, shown } of files) {
    const bytes = await readFile(full).catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read policy file ${shown}: ${err.code ?? err.message}`);
    });
    const parsed = parseYamlFile(shown, bytes);
    all.issues.push(...parsed.issues);
    const text = bytes.toString('utf8');
    for (const doc of parsed.documents) {
      all.issues.push(...validateWithSchema(doc.value, schemas().file, doc.pos, '', doc.keyPos));
      const value = (typeof doc.value === 'object' && doc.value !== null ? doc.value : {}) as Record<string, unknown>;
      const part = compileRules(
        {
          file: shown,
          text,
          rules: value.rules,
          at: ['rules'],
          pos: doc.pos,
          keyPos: doc.keyPos,
          ...(value.approvers !== undefined ? { approvers: { value: value.approvers, at: ['approvers'] } } : {}),
        },
        cel,
      );
      all.rules.push(...part.rules);
      all.names.push(...part.names);
      all.approvers.push(...part.approvers);
      all.issues.push(...part.issues);
    }
  }
  return all;
}

/**
 * The parts → one policy: unique rule names, one set of approvers, at least one rule. Throws ValidationError
 * with every issue (sorted) when anything is wrong. `nothing` says where to point when no rule was found (undefined:
 * say nothing of it, when some rules could not be read at all).
 */
export function combinePolicy(parts: readonly Part[], origin: string, nothing: SourcePos | undefined): LoadedPolicy {
  const issues = parts.flatMap((p) => p.issues);
  const rules = parts.flatMap((p) => p.rules);
  const seen = new Map<string, SourcePos>();
  for (const r of parts.flatMap((p) => p.names)) {
    const first = seen.get(r.name);
    if (first)
      issues.push({
        ...r.source,
        message: `rule ${r.name}: another rule has this name (${first.file}:${first.line}:${first.column}); names must be unique`,
      });
    else seen.set(r.name, r.source);
  }
  const approvers = parts.flatMap((p) => p.approvers);
  for (const a of approvers.slice(1)) {
    if (a.value.githubTeam !== approvers[0]!.value.githubTeam)
      issues.push({
        ...a.pos,
        message: `approvers: names githubTeam ${a.value.githubTeam}, but ${approvers[0]!.pos.file}:${approvers[0]!.pos.line} names ${approvers[0]!.value.githubTeam}; every policy file must name the same approvers`,
      });
  }
  if (nothing && issues.length === 0 && rules.length === 0)
    issues.push({
      ...nothing,
      message: 'the policy loads no rule: a configured policy that loads no rule is an error, never a pass',
    });
  if (issues.length > 0)
    throw new ValidationError(
      [...issues].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column),
    );
  return { rules, origin, ...(approvers[0] ? { approvers: approvers[0].value } : {}) };
}

/** `--policy PATH` of plan and apply. */
export async function loadPolicyPath(target: string): Promise<LoadedPolicy> {
  return combinePolicy([await policyPathPart(target)], target, { file: target, line: 1, column: 1 });
}
