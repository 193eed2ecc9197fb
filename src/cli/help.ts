/** Help texts for `docops --help` and `docops <command> --help`. */
import type { FlagSpecs, GlobalFlagName } from './args.js';
import { globalFlagsFor } from './args.js';

export interface HelpEntry {
  name: string;
  summary: string;
}

function flagLines(flags: FlagSpecs): string[] {
  const rows = Object.entries(flags).map(([name, f]) => {
    const left = `${f.short ? `-${f.short}, ` : '    '}--${name}${f.value ? ` ${f.value}` : ''}`;
    return { left, right: f.description };
  });
  const width = Math.max(...rows.map((r) => r.left.length)) + 2;
  return rows.map((r) => `  ${r.left.padEnd(width)}${r.right}`);
}

export function commandHelp(spec: {
  name: string;
  usage: string;
  description: string;
  flags: FlagSpecs;
  globals?: readonly GlobalFlagName[];
  examples: string[];
}): string {
  const lines = [`Usage: ${spec.usage}`, '', spec.description, ''];
  if (Object.keys(spec.flags).length > 0) lines.push('Flags:', ...flagLines(spec.flags), '');
  lines.push('Global flags:', ...flagLines(globalFlagsFor(spec.globals)), '');
  lines.push('Examples:', ...spec.examples.map((e) => `  ${e}`), '');
  return lines.join('\n');
}

export function mainHelp(commands: readonly HelpEntry[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    'docops: GitOps for a GitBook organization. Keep its settings, members, teams, spaces, collections and sites',
    "as YAML in git; docops validates them, plans the changes against GitBook's organization management API",
    '(https://api.gitbook.com/v1) and applies them.',
    '',
    'Usage: docops <command> [flags]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Flags:',
    '  -h, --help     Show help (also after a command: docops plan --help)',
    '  -v, --version  Print the version',
    '',
    'Exit codes: 0 success / no changes, 1 error, 2 changes pending (plan --detailed-exitcode), 3 safety refused.',
    '',
    'Examples:',
    '  docops validate -m manifests',
    '  docops plan -m manifests --detailed-exitcode',
    '  docops apply -m config.example/manifests --sandbox',
    '',
  ].join('\n');
}
