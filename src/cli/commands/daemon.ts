/** `docops daemon -c FILE`: the long-lived reconciler (it parses its own flags; see src/daemon/command.ts). */
import { daemonCommand } from '../../daemon/command.js';
import type { CliIO } from '../io.js';

export function runDaemon(argv: readonly string[], io: CliIO): Promise<number> {
  return daemonCommand([...argv], io);
}
