/**
 * GitHub Actions integration: validation issues as `::error` workflow commands (annotations on the PR's
 * files) and the markdown plan appended to the job's step summary. Active only when GITHUB_ACTIONS=true.
 * Escaping follows the runner's workflow-command rules (actions/toolkit command.ts).
 */
import { appendFile } from 'node:fs/promises';
import { redactText } from '../secrets.js';
import path from 'node:path';
import { ApplyError, BlockedError, ValidationError, type ValidationIssue } from '../model/errors.js';
import type { CliIO } from './io.js';

type Env = Readonly<Record<string, string | undefined>>;

export const inGitHubActions = (env: Env): boolean => env.GITHUB_ACTIONS === 'true';

/** A command's message: `%`, CR and LF are escaped. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A command's property value: as data, plus `:` and `,` (they separate properties). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** File paths relative to the workspace, so GitHub can place the annotation on the file in the diff. */
function annotationPath(file: string, env: Env): string {
  const workspace = env.GITHUB_WORKSPACE;
  if (workspace && path.isAbsolute(file)) {
    const rel = path.relative(workspace, file);
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  }
  return file.split(path.sep).join('/');
}

/** `::error file=F,line=L,col=C::message` (or `::warning …`) */
export function errorAnnotation(issue: ValidationIssue, env: Env = {}, level: 'error' | 'warning' = 'error'): string {
  return `::${level} file=${escapeProperty(annotationPath(issue.file, env))},line=${issue.line},col=${issue.column}::${escapeData(issue.message)}`;
}

/** In GitHub Actions, one `::warning` annotation per validation warning (e.g. a reference that must exist live). */
export function annotateWarnings(warnings: readonly ValidationIssue[], io: CliIO): void {
  if (!inGitHubActions(io.env)) return;
  for (const w of warnings) io.stdout.write(errorAnnotation(w, io.env, 'warning') + '\n');
}

/**
 * In GitHub Actions, print one annotation per validation issue, and per blocked manifest object that has a
 * source position, on stdout (where the runner reads commands).
 */
export function annotateError(err: unknown, io: CliIO): void {
  if (!inGitHubActions(io.env)) return;
  const issues: ValidationIssue[] =
    err instanceof ValidationError
      ? err.issues
      : err instanceof BlockedError || err instanceof ApplyError
        ? err.blocked.flatMap((b) =>
            b.source ? [{ ...b.source, message: `${b.kind} ${b.org}/${b.key} is blocked: ${b.message}` }] : [],
          )
        : [];
  for (const issue of issues) io.stdout.write(errorAnnotation(issue, io.env) + '\n');
}

/** Whether appendStepSummary writes: in GitHub Actions, with $GITHUB_STEP_SUMMARY naming a file. */
export const willAppendStepSummary = (io: CliIO): boolean =>
  inGitHubActions(io.env) && Boolean(io.env.GITHUB_STEP_SUMMARY);

/** Append markdown to $GITHUB_STEP_SUMMARY when running in GitHub Actions and the variable names a file. */
export async function appendStepSummary(io: CliIO, markdown: string): Promise<boolean> {
  const file = io.env.GITHUB_STEP_SUMMARY;
  if (!willAppendStepSummary(io) || !file) return false;
  await appendFile(file, redactText(markdown.endsWith('\n') ? markdown + '\n' : markdown + '\n\n'), 'utf8');
  return true;
}
