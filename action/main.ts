/**
 * The docops GitHub Action's entry: action.yml runs it as `runs.main` (node24), bundled with everything it
 * imports into the one committed file action/dist/index.cjs (`npm run build:action`, tools/build/bundle-action.ts).
 */
import { escapeData } from '../src/cli/github.js';
import { redactText } from '../src/secrets.js';
import { runAction } from './run-action.js';

runAction(process.env, { stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Not reached by docops's own errors (run() turns them into exit codes): a defect of the action itself.
    process.stdout.write(
      `::error::docops action failed: ${escapeData(redactText(err instanceof Error ? (err.stack ?? err.message) : String(err)))}\n`,
    );
    process.exitCode = 1;
  },
);
