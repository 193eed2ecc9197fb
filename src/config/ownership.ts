/**
 * The config's ownership settings (docs/daemon.md, "Who owns what"): `kinds.<Kind>.mode` and `.drift`, and
 * `proposals`, where drift under `propose` becomes a pull request. Read and checked here; load.ts calls these.
 */
import { resolve } from 'node:path';
import type { SourcePos, ValidationIssue } from '../model/errors.js';
import { isRecord } from '../model/json.js';

/** Where drift under `drift: propose` is proposed (`proposals.github`, paths resolved; the token is read at start). */
export interface ProposalsConfig {
  github: { repository: string; apiUrl: string; tokenFile?: string; branch: string; base?: string; path?: string };
  /** Where `github` and its tokenFile are written, for the problems found when the daemon reads the token. */
  at?: { github: SourcePos; tokenFile?: SourcePos };
}

type RawConfig = Record<string, unknown>;
type At = (path: string[]) => { file: string; line: number; column: number };

/** GitHub's API when the config names none (DOCOPS_GITHUB_API_URL, else github.com's). */
export const githubApiUrl = (env: Readonly<Record<string, string | undefined>>): string =>
  env.DOCOPS_GITHUB_API_URL || 'https://api.github.com';

export function proposalsConfig(
  raw: unknown,
  base: string,
  doc?: { pos: (path: string[]) => SourcePos; keyPos: (path: string[]) => SourcePos },
  defaultApiUrl = 'https://api.github.com',
): { proposals?: ProposalsConfig } {
  const gh = isRecord(raw) && isRecord(raw.github) ? raw.github : undefined;
  if (!gh || typeof gh.repository !== 'string') return {};
  const str = (k: string): string | undefined => (typeof gh[k] === 'string' ? (gh[k] as string) : undefined);
  const tokenFile = str('tokenFile');
  return {
    proposals: {
      github: {
        repository: gh.repository,
        apiUrl: str('apiUrl') ?? defaultApiUrl,
        ...(tokenFile !== undefined ? { tokenFile: resolve(base, tokenFile) } : {}),
        branch: str('branch') ?? 'docops/drift',
        ...(str('base') !== undefined ? { base: str('base')! } : {}),
        ...(str('path') !== undefined ? { path: str('path')! } : {}),
      },
      ...(doc
        ? {
            at: {
              github: doc.keyPos(['proposals', 'github']),
              ...(tokenFile !== undefined ? { tokenFile: doc.pos(['proposals', 'github', 'tokenFile']) } : {}),
            },
          }
        : {}),
    },
  };
}

/** drift: propose needs somewhere to propose; observe never writes, so no drift setting means anything beside it. */
export function driftIssues(raw: RawConfig, at: At): ValidationIssue[] {
  if (!isRecord(raw.kinds)) return [];
  const issues: ValidationIssue[] = [];
  const github = isRecord(raw.proposals) && isRecord(raw.proposals.github);
  for (const [kind, c] of Object.entries(raw.kinds)) {
    if (!isRecord(c) || c.drift === undefined || c.drift === 'revert') continue;
    if (c.mode === 'observe')
      issues.push({
        ...at(['kinds', kind, 'drift']),
        message: `kinds.${kind}.drift: observe never writes, so it reverts no drift to keep (remove drift or the mode)`,
      });
    else if (c.drift === 'propose' && !github)
      issues.push({
        ...at(['kinds', kind, 'drift']),
        message: `kinds.${kind}.drift: propose needs proposals.github (the manifests' repository) to propose in`,
      });
  }
  return issues;
}

/** Prune deletes what no manifest writes; a kind in additive or observe mode never does (src/engine/modes.ts). */
export function modeIssues(raw: RawConfig, at: At): ValidationIssue[] {
  if (!isRecord(raw.kinds) || !isRecord(raw.prune)) return [];
  const issues: ValidationIssue[] = [];
  for (const [kind, c] of Object.entries(raw.kinds)) {
    const mode = isRecord(c) ? c.mode : undefined;
    if (raw.prune[kind] !== true || (mode !== 'additive' && mode !== 'observe')) continue;
    issues.push({
      ...at(['kinds', kind, 'mode']),
      message: `kinds.${kind}.mode: ${mode} never deletes what no manifest writes, so prune.${kind}: true contradicts it (remove one of them)`,
    });
  }
  return issues;
}
