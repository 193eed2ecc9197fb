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
  /**
   * Asks a person a question and resolves their answer: only when stdin and stderr are terminals (undefined
   * otherwise: pipes, CI, the daemon), so a command that would ask goes on as it always did.
   */
  ask?: (question: string) => Promise<string>;
}

export function processIO(): CliIO {
  const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    isTTY: process.stdout.isTTY === true,
    ...(interactive ? { ask: askOnTerminal } : {}),
  };
}

/** One line read from the terminal after writing `question` to stderr (the plan stays alone on stdout). */
async function askOnTerminal(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

export const stdoutIsTTY = (io: CliIO): boolean => io.isTTY ?? io.stdout.isTTY === true;
