/** `docops undo JOURNAL [-o DIR]`: the safety layer's undo over the registered kinds (it parses its own flags). */
import { undoCommand } from '../../safety/index.js';
import type { CliIO } from '../io.js';
import { KINDS } from '../wiring.js';

export const UNDO_SUMMARY = 'Turn a delete journal into manifests that recreate what apply deleted (offline)';

export function runUndo(argv: readonly string[], io: CliIO): Promise<number> {
  return undoCommand(argv, io, KINDS);
}
