/**
 * Every command by name, with the line `docops --help` shows for it and how to load it. A command's module (its
 * flags, help text and code) is imported only when that command runs, so `docops --version` and `docops --help`
 * load none of them, and one command never pays for another's dependencies (docs/dev/benchmarks.md, "Start-up").
 */
import type { Logger } from '../../log.js';
import type { CommandSpec } from '../command.js';
import type { CliIO } from '../io.js';

/** What main lends a command that parses its own arguments. */
export interface RunHooks {
  onCleanup(fn: () => Promise<void> | void): void;
  addSecret(value: string): void;
  /** The logger the top-level error handler logs with, once the command made one. */
  setLogger(logger: Logger): void;
}

export type CommandModule =
  /** Flags parsed by main, with the global flags. */
  | { spec: CommandSpec }
  /** Parses its own arguments (a positional argument, or flags of its own). */
  | { run(argv: readonly string[], io: CliIO, hooks: RunHooks): Promise<number> };

export interface CommandEntry {
  name: string;
  /** One line for `docops --help`. */
  summary: string;
  /** The sandbox prints its own (made-up) token on purpose; every other command may hold a real one. */
  printsOwnToken?: true;
  load(): Promise<CommandModule>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'whoami',
    summary: 'Who the token belongs to, the organizations it sees and what it may do there (read-only)',
    load: async () => ({ spec: (await import('./whoami.js')).whoamiCommand }),
  },
  {
    name: 'orgs',
    summary: 'List the organizations the token sees, with their ids (read-only)',
    load: async () => ({ spec: (await import('./orgs.js')).orgsCommand }),
  },
  {
    name: 'init',
    summary: 'Start a repository for an organization: its manifests, a daemon config, the GitHub workflow',
    load: async () => ({ spec: (await import('./init.js')).initCommand }),
  },
  {
    name: 'validate',
    summary: 'Check the manifests offline (schema and cross-references); no token needed',
    load: async () => ({ spec: (await import('./validate.js')).validateCommand }),
  },
  {
    name: 'plan',
    summary: 'Show the changes apply would make (read-only)',
    load: async () => ({ spec: (await import('./plan.js')).planCommand }),
  },
  {
    name: 'apply',
    summary: 'Make the live organization match the manifests',
    load: async () => ({ spec: (await import('./apply.js')).applyCommand }),
  },
  {
    name: 'export',
    summary: "Write manifests from an organization's live state (read-only)",
    load: async () => ({ spec: (await import('./export.js')).exportCommand }),
  },
  {
    name: 'pr-comment',
    summary: 'Post the markdown plan as one pull-request comment, updated in place (GitHub Actions)',
    load: async () => ({ spec: (await import('./pr-comment.js')).prCommentCommand }),
  },
  {
    name: 'daemon',
    summary: 'Keep the organization equal to the manifests: watch, schedule, serve health and metrics',
    load: async () => {
      const { daemonCommand } = await import('./daemon.js');
      return { run: (argv, io) => daemonCommand([...argv], io) };
    },
  },
  {
    name: 'undo',
    summary: 'Bring back what apply deleted, from its delete journal (dry-run unless --apply)',
    load: async () => ({ run: (await import('./undo.js')).runUndo }),
  },
  {
    name: 'sandbox',
    summary: 'Run a local sandbox of the management API (see docops sandbox --help)',
    printsOwnToken: true,
    load: async () => ({ run: (await import('./sandbox.js')).runSandbox }),
  },
];
