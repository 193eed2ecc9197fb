/**
 * Start-up of the installed `docops` (package.json `bin`), measured from outside as a user waits for it:
 * `docops --version` and `docops validate -m config.example/manifests` against a bare `node -e 0`, run in
 * alternation (A B A B …) so a drift of the machine's speed hits both; the ratio is the median of the pairs'
 * ratios. Then, per command, the CPU of the whole process and the files it loads (probe.ts), informational.
 */
import { TARGETS } from './config.js';
import { fmt, ms, ratio2, type MeasureModule, type MeasureOutput, type Row } from './measure.js';
import { cleanEnv, docopsCommand, median, modulesByOrigin, runProbed, runTimed, startVariables } from './spawn.js';

export interface WallRatio {
  command: string[];
  baseline: string[];
  /** Median of the per-pair ratios A ÷ B. */
  ratio: number;
  medianMs: number;
  baselineMedianMs: number;
  ratios: number[];
}

/** `pairs` alternating runs of `a` and `b` (after one unmeasured run of each); both must exit 0. */
export async function wallRatio(
  a: readonly string[],
  b: readonly string[],
  pairs: number,
  env: Record<string, string>,
): Promise<WallRatio> {
  const once = async (cmd: readonly string[]): Promise<number> => {
    const exit = await runTimed(cmd, env);
    if (exit.code !== 0) throw new Error(`${cmd.join(' ')} exited ${exit.code}:\n${exit.stderr.slice(0, 2000)}`);
    return exit.wallMs;
  };
  await once(a);
  await once(b);
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < pairs; i++) {
    as.push(await once(a));
    bs.push(await once(b));
  }
  const ratios = as.map((x, i) => x / bs[i]!);
  const r3 = (x: number): number => Math.round(x * 1000) / 1000;
  return {
    command: [...a],
    baseline: [...b],
    ratio: r3(median(ratios)),
    medianMs: r3(median(as)),
    baselineMedianMs: r3(median(bs)),
    ratios: ratios.map(r3),
  };
}

export interface CommandStartup {
  name: string;
  args: string[];
  cpuMs: number;
  /** Files loaded (the CLI's own modules or bundle chunks, and package files). */
  modules: number;
  byOrigin: Record<string, number>;
}

/** The validate of the start-up target (run from the package root). */
export const VALIDATE_ARGS = ['validate', '-m', 'config.example/manifests'];

/** Commands probed here; `plan` is probed by the cold-plan measure (it needs a sandbox). */
export const PROBED_COMMANDS: readonly { name: string; args: string[] }[] = [
  { name: '--version', args: ['--version'] },
  { name: '--help', args: ['--help'] },
  { name: 'validate', args: VALIDATE_ARGS },
  { name: 'plan --help', args: ['plan', '--help'] },
  { name: 'daemon --help', args: ['daemon', '--help'] },
  { name: 'sandbox --help', args: ['sandbox', '--help'] },
];

export interface StartupMeasure {
  /** In a clean environment (spawn.ts cleanEnv): the targets. */
  version: WallRatio;
  validate: WallRatio;
  commands: CommandStartup[];
  /**
   * The same ratios with the variables of this environment that slow every node start (e.g. NODE_EXTRA_CA_CERTS),
   * when it sets any: both sides pay them, so the ratios are lower. Informational.
   */
  withStartVariables?: { variables: string[]; version: WallRatio; validate: WallRatio };
  /**
   * `validate` without the compile cache (NODE_DISABLE_COMPILE_CACHE=1): what a first run pays, e.g. in a fresh
   * CI container. Informational.
   */
  validateWithoutCompileCache: WallRatio;
}

export async function measureStartup(opts: {
  pairs: number;
  cpuRuns: number;
  command?: readonly string[];
}): Promise<StartupMeasure> {
  const docops = opts.command ?? docopsCommand();
  const bare = [process.execPath, '-e', '0'];
  const env = cleanEnv();
  const version = await wallRatio([...docops, '--version'], bare, opts.pairs, env);
  const validate = await wallRatio([...docops, ...VALIDATE_ARGS], bare, opts.pairs, env);
  const validateWithoutCompileCache = await wallRatio(
    [...docops, ...VALIDATE_ARGS],
    bare,
    opts.pairs,
    cleanEnv({ NODE_DISABLE_COMPILE_CACHE: '1' }),
  );
  const commands: CommandStartup[] = [];
  for (const { name, args } of PROBED_COMMANDS) {
    const p = await runProbed(docops, args, env, { runs: opts.cpuRuns });
    commands.push({ name, args, cpuMs: p.cpuMs, modules: p.modules.length, byOrigin: modulesByOrigin(p.modules) });
  }
  const vars = startVariables();
  if (Object.keys(vars).length === 0) return { version, validate, commands, validateWithoutCompileCache };
  const withVars = cleanEnv(vars);
  return {
    version,
    validate,
    commands,
    validateWithoutCompileCache,
    withStartVariables: {
      variables: Object.keys(vars),
      version: await wallRatio([...docops, '--version'], bare, opts.pairs, withVars),
      validate: await wallRatio([...docops, ...VALIDATE_ARGS], bare, opts.pairs, withVars),
    },
  };
}

/** "name: N files, C ms CPU" for the informational row. */
export const commandSummary = (c: Pick<CommandStartup, 'name' | 'modules' | 'cpuMs'>): string =>
  `\`${c.name}\` ${fmt(c.modules)} files, ${ms(c.cpuMs)} CPU`;

export function startupRows(m: StartupMeasure): Row[] {
  const row = (label: string, r: WallRatio, target: number): Row => ({
    measure: label,
    measured: `${ms(r.medianMs)} ÷ ${ms(r.baselineMedianMs)} (median of ${r.ratios.length} alternating pairs)`,
    ratio: ratio2(r.ratio),
    target: `≤ ${target}`,
    met: r.ratio <= target,
  });
  const rows = [
    row('Start-up: `docops --version` wall ÷ `node -e 0` (clean environment)', m.version, TARGETS.versionRatio),
    row(
      'Start-up: `docops validate -m config.example/manifests` wall ÷ `node -e 0` (clean environment)',
      m.validate,
      TARGETS.validateRatio,
    ),
  ];
  const c = m.validateWithoutCompileCache;
  rows.push({
    measure:
      'Informational: `validate` without the compile cache (NODE_DISABLE_COMPILE_CACHE=1: a first run, e.g. a fresh CI container)',
    measured: `${ms(c.medianMs)} ÷ ${ms(c.baselineMedianMs)}`,
    ratio: ratio2(c.ratio),
    target: '',
  });
  const w = m.withStartVariables;
  if (w) {
    rows.push({
      measure: `Informational: the same two with this machine's ${w.variables.join(', ')} (every node start pays it)`,
      measured: `\`--version\` ${ms(w.version.medianMs)} ÷ ${ms(w.version.baselineMedianMs)}; \`validate\` ${ms(w.validate.medianMs)} ÷ ${ms(w.validate.baselineMedianMs)}`,
      ratio: `${ratio2(w.version.ratio)}; ${ratio2(w.validate.ratio)}`,
      target: '',
    });
  }
  return rows;
}

export const startupMeasure: MeasureModule = {
  name: 'startup',
  async run(env): Promise<MeasureOutput> {
    env.log('start-up: docops --version and validate against node -e 0; files and CPU per command');
    const m = await measureStartup({ pairs: env.config.startupPairs, cpuRuns: env.config.startupCpuRuns });
    const notes: string[] = [];
    if (m.version.ratio > TARGETS.versionRatio || m.validate.ratio > TARGETS.validateRatio) {
      notes.push(
        `start-up above target: files and CPU per command are in latest.json (startup.commands); see docs/dev/benchmarks.md, "Start-up"`,
      );
    }
    return {
      keys: { versionRatio: m.version.ratio, validateRatio: m.validate.ratio },
      details: m,
      rows: [
        ...startupRows(m),
        {
          measure: 'Informational: files loaded and CPU per command (whole process)',
          measured: m.commands.map(commandSummary).join('; '),
          ratio: '',
          target: '',
        },
      ],
      notes,
    };
  },
};
