import { main } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI in-process with string-collecting streams (never TTYs, so no colour). */
export async function runCli(argv: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (c: string) => void (stdout += c), isTTY: false },
    stderr: { write: (c: string) => void (stderr += c), isTTY: false },
    env,
  });
  return { code, stdout, stderr };
}
