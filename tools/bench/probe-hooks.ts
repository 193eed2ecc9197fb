/**
 * Module loader hooks of probe.ts (they run on the loader's own thread): every file: URL a module is loaded
 * from, appended to the file named in DOCOPS_PROBE_OUT as a `load <url>` line.
 */
import { appendFileSync } from 'node:fs';

interface LoadContext {
  format?: string | null;
}
type NextLoad = (url: string, context: LoadContext) => Promise<unknown>;

export async function load(url: string, context: LoadContext, next: NextLoad): Promise<unknown> {
  const out = process.env['DOCOPS_PROBE_OUT'];
  if (out && url.startsWith('file:')) appendFileSync(out, `load ${url}\n`);
  return next(url, context);
}
