/**
 * `npm run bench`: the benchmarks of issue 8 on the default sizes. Prints the table and writes
 * bench/results/latest.json and latest.md (relative to the working directory, the package root under npm).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KINDS } from '../kinds/index.js';
import { DEFAULT_CONFIG } from './config.js';
import { measureCpuInChild, measureFloorInChild, measureReadInChild } from './cpu.js';
import { runBench } from './harness.js';
import { runRateLimitBench } from './rate-limit-bench.js';
import { markdownTable } from './report.js';
import { startInChild } from './sandbox-env.js';

const result = await runBench(DEFAULT_CONFIG, {
  kinds: KINDS,
  startSandbox: startInChild,
  measureCpu: (sizes) => measureCpuInChild(sizes, DEFAULT_CONFIG.cpuRuns),
  measureFloor: (members) => measureFloorInChild(members, DEFAULT_CONFIG.cpuRuns),
  // Each read takes ~1 s; three runs give a median.
  measureRead: (sizes) => measureReadInChild(sizes, 3),
  log: (line) => process.stderr.write(`bench: ${line}\n`),
});
Object.assign(result, await runRateLimitBench(DEFAULT_CONFIG, { kinds: KINDS, startSandbox: startInChild, log: (line) => process.stderr.write(`bench: ${line}\n`) }));
const table = markdownTable(result);
const out = join(process.cwd(), 'bench', 'results');
await mkdir(out, { recursive: true });
await writeFile(join(out, 'latest.json'), JSON.stringify(result, null, 2) + '\n');
await writeFile(join(out, 'latest.md'), table);
process.stdout.write(table);
