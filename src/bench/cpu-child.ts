/** Child-process entry of the CPU benchmark: its peak RSS is the benchmark's alone. Sizes in argv[2]. */
import { KINDS } from '../kinds/index.js';
import { measureCpu } from './cpu.js';
import type { OrgSizes } from './org-model.js';

const sizes = JSON.parse(process.argv[2] ?? '{}') as OrgSizes;
const result = await measureCpu(sizes, KINDS);
// Disconnect once sent: the open IPC channel would otherwise keep this process alive.
process.send?.(result, () => process.disconnect());
