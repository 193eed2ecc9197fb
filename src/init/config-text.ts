/**
 * The docops.yaml `docops init` writes, for the applier chosen (docs/getting-started.md, "Who applies"):
 * - workflow: the GitHub workflow applies each merge after its environment's reviewers approve; the daemon is in
 *   `mode: plan` and never writes (it reports drift);
 * - daemon: the daemon applies, under a policy that makes every change a manifest asks for wait for an approval
 *   from a member of a GitHub team, given as a `/docops approve` comment on the pull request; the workflow only
 *   plans.
 * Either way only one of them writes a merge.
 */
import { INIT_JOURNAL_DIR, INIT_LAYOUT, type Applier } from './files.js';

export interface InitSetup {
  applier: Applier;
  /** OWNER/NAME of the repository on GitHub (the daemon applier reads its pull requests' approvals). */
  repository?: string;
  /** ORG/TEAM-SLUG: the GitHub team whose members approve (the daemon applier). */
  approvers?: string;
}

/** What --github-repo and --approvers must look like (the config schema's patterns for them). */
export const REPOSITORY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/;
export const TEAM_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9_.-]+$/;

function whoApplies(setup: InitSetup): string[] {
  if (setup.applier === 'daemon')
    return [
      '# Who applies: this daemon. It applies each merge to the default branch once a member of the GitHub team',
      `# ${setup.approvers} approves its plan: a comment \`/docops approve sha256:…\` on the pull request (the plan`,
      '# comment of .github/workflows/docops.yml, which only plans, shows the line to copy; so does the status page).',
    ];
  return [
    '# Who applies: the workflow (.github/workflows/docops.yml), once a reviewer of its environment docops-production',
    "# approves. This daemon never writes (mode: plan): it reports drift — changes made behind docops's back — on",
    '# its status page, in its metrics and notifications. `docops init --applier daemon` writes the other setup.',
  ];
}

function policy(setup: InitSetup): string[] {
  if (setup.applier !== 'daemon') return [];
  return [
    'policy:                      # docs/policy.md',
    `  approvers: { githubTeam: ${setup.approvers} }   # whose \`/docops approve\` comments count`,
    '  rules:',
    '    - name: changes-need-approval',
    '      when: change.origin != "drift"   # what the manifests ask for; reverting drift restores what was approved',
    '      outcome: require-approval',
    `      message: A change the manifests ask for is applied once a member of ${setup.approvers} approves it`,
    '  approvals:',
    `    github: { repository: ${setup.repository} }   # its pull requests' comments, read with DOCOPS_GITHUB_TOKEN`,
  ];
}

export function daemonConfigText(org: string, setup: InitSetup): string {
  const applies = setup.applier === 'daemon';
  return [
    `# yaml-language-server: $schema=${INIT_LAYOUT.schemas}/config.schema.json`,
    `# docops daemon configuration for organization ${JSON.stringify(org)}, written by \`docops init --applier ${setup.applier}\`:`,
    '#   docops daemon -c docops.yaml',
    ...whoApplies(setup),
    '# Relative paths are relative to this file. DOCOPS_* environment variables override single fields',
    '# (DOCOPS_API_URL, DOCOPS_MANIFESTS, DOCOPS_MODE, DOCOPS_LISTEN, DOCOPS_JOURNAL_DIR, …). Every field: docs/daemon.md.',
    '',
    `manifests: ./${INIT_LAYOUT.manifests}`,
    '# allowEnv: [ORG_ID]               # variables the manifests may read as ${NAME} (none by default)',
    '',
    '# apiUrl: https://api.gitbook.com/v1   # else DOCOPS_API_URL, else this default',
    '# tokenFile: /run/secrets/docops-token # else DOCOPS_TOKEN',
    '',
    applies
      ? 'mode: apply                  # applies merges once approved (policy below)'
      : 'mode: plan                   # the workflow applies; `apply` here would apply each merge before anyone approves it',
    applies
      ? 'schedule: "*/10 * * * *"     # also reconcile every 10 minutes: reverts changes made behind docops\'s back'
      : 'schedule: "*/10 * * * *"     # also compare every 10 minutes: reports changes made behind docops\'s back',
    'listen: 127.0.0.1:8080       # the status page, /healthz, /readyz, /metrics, POST /reconcile',
    '# reconcileSecretFile: /run/secrets/docops-reconcile   # turns on POST /reconcile',
    '',
    'prune: {}                    # e.g. { Team: true }: delete live teams no manifest mentions',
    'invite: false',
    'safety:                      # limits per run: docs/safety.md',
    '  deletes: { fraction: 0.25, minLive: 10, max: 100 }',
    '  updates: { fraction: 0.3, minLive: 10, max: 500 }',
    `journalDir: ./${INIT_JOURNAL_DIR}   # \`docops undo\` restores deletes from it: keep it (git-ignored)`,
    'logLevel: info',
    ...policy(setup),
    '',
  ].join('\n');
}
