/** Shared helpers for the manifest loader tests. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { formatIssue, ValidationError } from '../../src/model/errors.js';

/** The fixtures directory as the loader names it in messages (relative to the working directory). */
export const FIX = path
  .relative(process.cwd(), fileURLToPath(new URL('../fixtures/manifests', import.meta.url)))
  .split(path.sep)
  .join('/');

/** The `file:line:column: message` lines of the ValidationError a promise rejects with. */
export async function issueLines(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'expected a ValidationError').toBeInstanceOf(ValidationError);
  return (error as ValidationError).issues.map(formatIssue);
}
