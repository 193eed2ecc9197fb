/** What probe.ts wrote for one process: its CPU and the modules it loaded. */

export interface ProbeResult {
  /** user + system CPU of the whole process, ms. */
  cpuMs: number;
  /** file: URLs of every module loaded (empty unless modules were counted), sorted, without the probe's own. */
  modules: string[];
}

/** Read what the probe appended to `text` (one process's output). */
export function parseProbe(text: string): ProbeResult {
  let cpuUs = 0;
  const modules = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('cpu ')) cpuUs = Number(line.slice(4));
    else if (line.startsWith('load ')) modules.add(line.slice(5));
  }
  const own = /\/bench\/probe(-hooks)?\.[jt]s$/;
  return { cpuMs: cpuUs / 1000, modules: [...modules].filter((m) => !own.test(m)).sort() };
}

/** The probe's file, for `node --import`. */
export const PROBE_URL = new URL('./probe.js', import.meta.url).href;
