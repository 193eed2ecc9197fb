/**
 * Preloaded into a measured process with `node --import <this file>` (start-up benchmark, and the test that
 * guards which modules a command loads). When the process exits it appends to the file named in
 * DOCOPS_PROBE_OUT its CPU (`cpu <user+system µs>`) and, with DOCOPS_PROBE_MODULES=1, the modules it loaded:
 * ES modules through loader hooks (probe-hooks.ts), CommonJS ones from the require cache. Counting modules
 * costs CPU of its own (the hooks run on a thread), so CPU is measured in runs without it. probe-read.ts reads
 * what it wrote.
 */
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const out = process.env['DOCOPS_PROBE_OUT'];
if (out) {
  if (process.env['DOCOPS_PROBE_MODULES'] === '1') register(new URL('./probe-hooks.js', import.meta.url));
  const cache = createRequire(import.meta.url).cache;
  process.once('exit', () => {
    const cpu = process.cpuUsage();
    const cjs =
      process.env['DOCOPS_PROBE_MODULES'] === '1'
        ? Object.keys(cache).map((f) => `load ${pathToFileURL(f).href}\n`)
        : [];
    appendFileSync(out, [...cjs, `cpu ${cpu.user + cpu.system}\n`].join(''));
  });
}
