/** The streams and environment a CLI run uses; tests pass string-collecting streams instead of the process's. */

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** A terminal's width (log lines are cut to it). */
  readonly columns?: number;
}

export interface CliIO {
  stdout: OutputStream;
  stderr: OutputStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Whether stdout is a terminal (overrides stdout.isTTY); decides colour of the rendered plan. */
  isTTY?: boolean;
}

export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, isTTY: process.stdout.isTTY === true };
}

export const stdoutIsTTY = (io: CliIO): boolean => io.isTTY ?? io.stdout.isTTY === true;
