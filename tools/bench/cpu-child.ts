/**
 * Child-process entry of the CPU benchmark: its peak RSS and its cold code are the benchmark's alone.
 * argv[2] = 'plan' (with its floor) or 'read', with the sizes in argv[3].
 */
import { KINDS } from '#src/kinds/index.js';
import { measureCpu } from './cpu.js';
import { measureRead } from './read-bench.js';
import type { OrgSizes } from './org-model.js';

const [mode, arg] = process.argv.slice(2);
let result: unknown;
if (mode === 'read') {
  result = await measureRead(JSON.parse(arg ?? '{}') as OrgSizes, KINDS);
} else {
  result = await measureCpu(JSON.parse(arg ?? '{}') as OrgSizes, KINDS);
}
// Disconnect once sent: the open IPC channel would otherwise keep this process alive.
process.send?.(result, () => process.disconnect());
