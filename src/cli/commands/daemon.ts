/** `docops daemon -c FILE`: the long-lived reconciler (it parses its own flags; see src/daemon/command.ts). */
import { DAEMON_SUMMARY, daemonCommand } from '../../daemon/command.js';
import type { CliIO } from '../io.js';

export { DAEMON_SUMMARY };

export function runDaemon(argv: readonly string[], io: CliIO): Promise<number> {
  return daemonCommand([...argv], io);
}
