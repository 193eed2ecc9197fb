/** `docops sandbox …`: run the local fake API; its flags and help belong to packages/sandbox/src/cli.ts. */
import { Writable } from 'node:stream';
import { sandboxCommand } from '@docops/sandbox/cli';
import type { CliIO, OutputStream } from '../io.js';

/** sandboxCommand wants Node writable streams; ours may be plain string sinks (tests). */
function asWritable(out: OutputStream): NodeJS.WritableStream {
  if (out instanceof Writable) return out;
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      out.write(String(chunk));
      callback();
    },
  });
}

export function runSandbox(argv: readonly string[], io: CliIO): Promise<number> {
  return sandboxCommand([...argv], { stdout: asWritable(io.stdout), stderr: asWritable(io.stderr) });
}
