/** `docops sandbox …`: run the local fake API; its flags and help belong to src/sandbox/cli.ts. */
import type { CliIO } from '../io.js';
import { sandboxCommand } from '../wiring.js';

export const SANDBOX_SUMMARY = 'Run a local sandbox of the management API (see docops sandbox --help)';

export function runSandbox(argv: string[], io: CliIO): Promise<number> {
  return sandboxCommand(argv, io);
}
