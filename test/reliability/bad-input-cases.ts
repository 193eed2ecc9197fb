/**
 * The bad-input corpus (test/fixtures/bad/) and what each case must say. `path` is a file or a directory below
 * the corpus; `expected` is the first `file:line:column: message` line, with the file relative to the corpus.
 */

export interface BadCase {
  path: string;
  expected: string;
  /** Extra command-line flags for `validate` and `plan` (e.g. --allow-env). */
  args?: string[];
}

const HOW_TO_ALLOW = (name: string): string =>
  `allow it with --allow-env ${name} (or DOCOPS_ALLOW_ENV, or allowEnv in the daemon config)`;

const ROLES = 'admin, create, review, edit, comment, read, null';
const KINDS = 'Collection, Members, OpenAPISpec, Organization, SamlProvider, Site, Space, Team, Translation';

/** test/fixtures/bad/manifests: each case must fail `validate` and `plan` with this message and exit 1. */
export const MANIFEST_CASES: BadCase[] = [
  // YAML syntax and encoding
  {
    path: 'yaml-unclosed-quote.yaml',
    expected:
      'yaml-unclosed-quote.yaml:6:10: unclosed quote: the " opened here is never closed (YAML: Missing closing "quote)',
  },
  {
    path: 'yaml-bad-indent.yaml',
    expected:
      'yaml-bad-indent.yaml:7:4: indentation: "members" is indented 3 spaces, but "title" on line 6 is indented 2; keys of one mapping start at the same column (YAML: Nested mappings are not allowed in compact mappings)',
  },
  {
    path: 'yaml-tab-indent.yaml',
    expected:
      'yaml-tab-indent.yaml:6:1: a tab in the indentation: YAML indents with spaces only (YAML: Tabs are not allowed as indentation)',
  },
  {
    path: 'yaml-duplicate-key.yaml',
    expected: 'yaml-duplicate-key.yaml:7:3: duplicate key "title" (first set on line 6)',
  },
  {
    path: 'yaml-unclosed-flow.yaml',
    expected:
      'yaml-unclosed-flow.yaml:6:12: unclosed "[": the list opened here has no "]" (one written over several lines must indent them more than its key) (YAML: Flow sequence in block collection must be sufficiently indented and end with a ])',
  },
  {
    path: 'yaml-unknown-tag.yaml',
    expected: 'yaml-unknown-tag.yaml:6:10: YAML warning (treated as an error): Unresolved tag: !secret',
  },
  {
    path: 'yaml-undefined-alias.yaml',
    expected: 'yaml-undefined-alias.yaml:6:10: unknown alias *teamTitle (the anchor &teamTitle must come before it)',
  },
  // YAML that is valid but not JSON data: docops's own message at the node, nothing printed by the library
  {
    path: 'yaml-complex-key.yaml',
    expected: 'yaml-complex-key.yaml:7:5: a mapping key must be a plain value, not a list or mapping',
  },
  { path: 'yaml-binary.yaml', expected: 'yaml-binary.yaml:6:19: tag !!binary is not supported' },
  { path: 'yaml-timestamp.yaml', expected: 'yaml-timestamp.yaml:6:22: tag !!timestamp is not supported' },
  { path: 'yaml-set.yaml', expected: 'yaml-set.yaml:7:18: tag !!set is not supported' },
  { path: 'yaml-nan.yaml', expected: 'yaml-nan.yaml:6:10: NaN is not a number JSON can hold' },
  {
    path: 'yaml-huge-int.yaml',
    expected: 'yaml-huge-int.yaml:7:7: integer too large to be exact (over 2^53): quote it if it is text',
  },
  {
    path: 'yaml-merge-list.yaml',
    expected: 'yaml-merge-list.yaml:7:7: a merge (<<) takes a mapping, or a list of mappings',
  },
  {
    path: 'yaml-cyclic-alias.yaml',
    expected: 'yaml-cyclic-alias.yaml:8:7: alias *m is inside the node it names (a cycle)',
  },
  { path: 'empty.yaml', expected: 'empty.yaml:1:1: file is empty' },
  { path: 'whitespace-only.yaml', expected: 'whitespace-only.yaml:1:1: file is empty' },
  {
    path: 'comments-only.yaml',
    expected: 'comments-only.yaml:1:1: file contains no YAML documents (only comments or empty documents)',
  },
  { path: 'binary-junk.yaml', expected: 'binary-junk.yaml:3:1: file is not valid UTF-8 (byte 0x89; binary file?)' },
  { path: 'invalid-utf8.yaml', expected: 'invalid-utf8.yaml:6:13: file is not valid UTF-8 (byte 0xe9; binary file?)' },
  { path: 'nul-byte.yaml', expected: 'nul-byte.yaml:6:14: file contains a NUL byte (binary file?)' },
  { path: 'utf16-bom.yaml', expected: 'utf16-bom.yaml:1:1: file is not valid UTF-8 (byte 0xff; binary file?)' },
  {
    path: 'document-is-list.yaml',
    expected:
      'document-is-list.yaml:1:1: a manifest must be a mapping with apiVersion, kind, metadata, spec (got array)',
  },
  {
    path: 'document-is-scalar.yaml',
    expected:
      'document-is-scalar.yaml:1:1: a manifest must be a mapping with apiVersion, kind, metadata, spec (got string "just a sentence")',
  },
  {
    path: 'second-document-bad.yaml',
    expected: 'second-document-bad.yaml:16:13: spec.members[0].role: must be one of owner, member (got "boss")',
  },
  // The envelope
  { path: 'missing-apiversion.yaml', expected: 'missing-apiversion.yaml:1:1: missing required field "apiVersion"' },
  { path: 'wrong-apiversion.yaml', expected: 'wrong-apiversion.yaml:1:13: apiVersion: must be "docops/v1" (got "v1")' },
  { path: 'missing-kind.yaml', expected: 'missing-kind.yaml:1:1: missing required field "kind"' },
  { path: 'unknown-kind.yaml', expected: `unknown-kind.yaml:2:7: kind: unknown kind "Group" (known kinds: ${KINDS})` },
  {
    path: 'kind-lowercase.yaml',
    expected: `kind-lowercase.yaml:2:7: kind: unknown kind "team" (known kinds: ${KINDS})`,
  },
  { path: 'missing-metadata.yaml', expected: 'missing-metadata.yaml:1:1: missing required field "metadata"' },
  {
    path: 'metadata-not-object.yaml',
    expected: 'metadata-not-object.yaml:3:11: metadata: must be object (got string "org-demo")',
  },
  {
    path: 'missing-organization.yaml',
    expected: 'missing-organization.yaml:4:3: metadata: missing required field "organization"',
  },
  {
    path: 'organization-number.yaml',
    expected: 'organization-number.yaml:4:17: metadata.organization: must be a non-empty string (got integer 42)',
  },
  {
    path: 'organization-empty.yaml',
    expected: 'organization-empty.yaml:4:17: metadata.organization: must be a non-empty string (got string "")',
  },
  {
    path: 'organization-dot-dot.yaml',
    expected:
      'organization-dot-dot.yaml:4:17: metadata.organization: must be an organization id, matching ^[a-zA-Z0-9_-]+$ (got "..")',
  },
  {
    path: 'organization-encoded-slash.yaml',
    expected:
      'organization-encoded-slash.yaml:4:17: metadata.organization: must be an organization id, matching ^[a-zA-Z0-9_-]+$ (got "org-demo%2F..%2Fother")',
  },
  {
    path: 'unknown-top-level-field.yaml',
    expected:
      'unknown-top-level-field.yaml:5:1: unknown field "labels" (allowed: apiVersion, kind, metadata, prune, allowEmpty, mode, spec)',
  },
  { path: 'prune-not-boolean.yaml', expected: 'prune-not-boolean.yaml:5:8: prune: must be boolean (got string "yes")' },
  { path: 'missing-spec.yaml', expected: 'missing-spec.yaml:1:1: missing required field "spec"' },
  { path: 'spec-is-list.yaml', expected: 'spec-is-list.yaml:6:3: spec: must be object (got array)' },
  // Members
  {
    path: 'members-missing-list.yaml',
    expected: 'members-missing-list.yaml:6:3: spec: missing required field "members"',
  },
  {
    path: 'members-not-array.yaml',
    expected: 'members-not-array.yaml:6:12: spec.members: must be array (got string "bob@acme.test")',
  },
  {
    path: 'members-bad-email.yaml',
    expected: 'members-bad-email.yaml:7:14: spec.members[0].email: must be a valid email (got "bob-at-acme.test")',
  },
  {
    path: 'members-email-too-long.yaml',
    expected: 'members-email-too-long.yaml:7:14: spec.members[0].email: must be at most 320 characters (got 330)',
  },
  {
    path: 'members-bad-role.yaml',
    expected: `members-bad-role.yaml:8:13: spec.members[0].role: must be one of ${ROLES} (got "owner")`,
  },
  {
    path: 'members-role-wrong-case.yaml',
    expected: `members-role-wrong-case.yaml:8:13: spec.members[0].role: must be one of ${ROLES} (got "Admin")`,
  },
  {
    // A role left out is not managed (export writes a role docops does not know that way); an e-mail is required.
    path: 'members-missing-email.yaml',
    expected: 'members-missing-email.yaml:7:7: spec.members[0]: missing required field "email"',
  },
  {
    path: 'members-sso-string.yaml',
    expected: 'members-sso-string.yaml:9:12: spec.members[0].sso: must be boolean (got string "true")',
  },
  {
    path: 'members-invite-string.yaml',
    expected: 'members-invite-string.yaml:6:11: spec.invite: must be boolean (got string "yes")',
  },
  {
    path: 'members-unknown-field.yaml',
    expected: 'members-unknown-field.yaml:9:7: spec.members[0]: unknown field "name"',
  },
  {
    path: 'members-listed-twice.yaml',
    expected: 'members-listed-twice.yaml:7:7: duplicate Members "bob@acme.test" in org-demo, also defined at ',
  },
  {
    path: 'members-listed-twice-case.yaml',
    expected: 'members-listed-twice-case.yaml:7:7: duplicate Members "bob@acme.test" in org-demo, also defined at ',
  },
  {
    path: 'members-duplicate-across-files',
    expected:
      'members-duplicate-across-files/a.yaml:9:7: duplicate Members "bob@acme.test" in org-demo, also defined at ',
  },
  // Team
  { path: 'team-missing-title.yaml', expected: 'team-missing-title.yaml:6:3: spec: missing required field "title"' },
  {
    path: 'team-empty-title.yaml',
    expected: 'team-empty-title.yaml:6:10: spec.title: must be at least 1 character (got 0)',
  },
  {
    path: 'team-title-too-long.yaml',
    expected: 'team-title-too-long.yaml:6:10: spec.title: must be at most 64 characters (got 65)',
  },
  {
    path: 'team-title-number.yaml',
    expected: 'team-title-number.yaml:6:10: spec.title: must be string (got integer 2024)',
  },
  { path: 'team-title-null.yaml', expected: 'team-title-null.yaml:6:3: spec.title: must be string (got null)' },
  {
    path: 'team-bad-id-pattern.yaml',
    expected: 'team-bad-id-pattern.yaml:7:7: spec.id: must match the pattern ^[a-zA-Z0-9_-]+$ (got "team platform!")',
  },
  {
    path: 'team-members-not-array.yaml',
    expected: 'team-members-not-array.yaml:7:12: spec.members: must be array (got object)',
  },
  {
    path: 'team-member-missing-email.yaml',
    expected: 'team-member-missing-email.yaml:8:7: spec.members[0]: missing required field "email"',
  },
  {
    path: 'team-member-bad-role.yaml',
    expected: 'team-member-bad-role.yaml:9:13: spec.members[0].role: must be one of owner, member (got "admin")',
  },
  {
    path: 'team-member-listed-twice.yaml',
    expected:
      'team-member-listed-twice.yaml:10:14: bob@acme.test is listed twice in team "Platform" (first at members[0])',
  },
  {
    path: 'team-member-not-org-member',
    expected:
      'team-member-not-org-member/team.yaml:9:14: mallory@evil.test is not listed in the Members documents of organization org-demo; team members must be organization members',
  },
  {
    path: 'team-duplicate-title',
    expected: 'team-duplicate-title/a.yaml:6:3: duplicate Team "Platform" in org-demo, also defined at ',
  },
  {
    path: 'team-duplicate-pinned-id.yaml',
    expected:
      'team-duplicate-pinned-id.yaml:6:3: duplicate Team id "team-platform" (pinned by Team "Platform" in org-demo), also pinned by Team "Platform team"',
  },
  // Translation
  {
    path: 'translation-title-too-long.yaml',
    expected: 'translation-title-too-long.yaml:6:10: spec.title: must be at most 100 characters (got 101)',
  },
  {
    path: 'translation-languages-duplicate.yaml',
    expected: 'translation-languages-duplicate.yaml:7:23: spec.languages[2]: duplicate item (same as item [0])',
  },
  {
    path: 'translation-languages-empty-string.yaml',
    expected: 'translation-languages-empty-string.yaml:7:15: spec.languages[0]: must be at least 1 character (got 0)',
  },
  {
    path: 'translation-languages-not-array.yaml',
    expected: 'translation-languages-not-array.yaml:7:14: spec.languages: must be array (got string "fr")',
  },
  {
    path: 'translation-duplicate-title.yaml',
    expected: 'translation-duplicate-title.yaml:6:3: duplicate Translation "French docs" in org-demo, also defined at ',
  },
  // Organization
  {
    path: 'org-title-too-short.yaml',
    expected: 'org-title-too-short.yaml:6:10: spec.title: must be at least 2 characters (got 1)',
  },
  {
    path: 'org-title-padded.yaml',
    expected: 'org-title-padded.yaml:6:10: spec.title: must match the pattern \\S.*\\S (got "  ")',
  },
  {
    path: 'org-hostname-pattern.yaml',
    expected:
      'org-hostname-pattern.yaml:6:13: spec.hostname: must match the pattern ^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$ (got "Acme_Docs")',
  },
  {
    path: 'org-hostname-trailing-dash.yaml',
    expected:
      'org-hostname-trailing-dash.yaml:6:13: spec.hostname: must match the pattern ^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$ (got "acme-docs-")',
  },
  {
    path: 'org-hostname-too-long.yaml',
    expected: 'org-hostname-too-long.yaml:6:13: spec.hostname: must be at most 32 characters (got 33)',
  },
  {
    path: 'org-default-role-bad.yaml',
    expected: `org-default-role-bad.yaml:6:16: spec.defaultRole: must be one of ${ROLES} (got "viewer")`,
  },
  {
    path: 'org-logo-not-uri.yaml',
    expected: 'org-logo-not-uri.yaml:6:9: spec.logo: must be a valid uri (got "not a url")',
  },
  {
    path: 'org-default-content-bad.yaml',
    expected: 'org-default-content-bad.yaml:6:27: spec.defaultContent.type: must be "site" (got "space")',
  },
  {
    path: 'org-email-domains-duplicate.yaml',
    expected: 'org-email-domains-duplicate.yaml:6:29: spec.emailDomains[1]: duplicate item (same as item [0])',
  },
  { path: 'org-sso-string.yaml', expected: 'org-sso-string.yaml:6:8: spec.sso: must be boolean (got string "false")' },
  {
    path: 'org-prune.yaml',
    expected:
      'org-prune.yaml:5:1: prune: Organization objects are never deleted by docops, so prune means nothing here (remove it)',
  },
  {
    path: 'members-allow-empty.yaml',
    expected:
      "members-allow-empty.yaml:5:1: allowEmpty: Members documents write no list of an object's sub-objects, so allowEmpty means nothing here (remove it)",
  },
  {
    path: 'collection-allow-empty-string.yaml',
    expected: 'collection-allow-empty-string.yaml:5:13: allowEmpty: must be boolean (got string "yes")',
  },
  {
    path: 'org-twice',
    expected: 'org-twice/a.yaml:6:3: duplicate Organization "org-demo" in org-demo, also defined at ',
  },
  // Site, Space, Collection
  {
    path: 'site-unknown-space',
    expected:
      'site-unknown-space/site.yaml:9:7: space "Getting Startd" is not in the Space manifests of org-demo, which prune every other space',
  },
  {
    path: 'site-sections-and-spaces.yaml',
    expected: 'site-sections-and-spaces.yaml:11:5: a site has either sections or root spaces, not both',
  },
  {
    path: 'site-group-unknown-section.yaml',
    expected:
      'site-group-unknown-section.yaml:12:26: section group "Learn" names section "tutorials", which is not in sections',
  },
  {
    path: 'site-default-section-missing.yaml',
    expected: 'site-default-section-missing.yaml:7:19: default section "api" is not in sections',
  },
  {
    path: 'site-section-path-twice.yaml',
    expected: 'site-section-path-twice.yaml:10:13: section path "guides" is listed twice',
  },
  {
    path: 'site-share-link-twice.yaml',
    expected: 'site-share-link-twice.yaml:9:13: share link "partners" is listed twice',
  },
  {
    path: 'site-path-with-slash.yaml',
    expected:
      'site-path-with-slash.yaml:8:13: spec.sections[0].path: must match the pattern ^[^/\\s]+$ (got "guides/v2")',
  },
  {
    path: 'site-proxy-url.yaml',
    expected:
      'site-proxy-url.yaml:7:10: spec.proxy: must match the pattern ^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$ (got "https://acme.com/docs")',
  },
  {
    path: 'site-visibility-bad.yaml',
    expected:
      'site-visibility-bad.yaml:7:15: spec.visibility: must be one of public, unlisted, share-link, visitor-auth (got "private")',
  },
  {
    path: 'site-title-too-short.yaml',
    expected: 'site-title-too-short.yaml:6:10: spec.title: must be at least 2 characters (got 1)',
  },
  {
    path: 'site-section-no-spaces.yaml',
    expected: 'site-section-no-spaces.yaml:9:15: spec.sections[0].spaces: must have at least 1 item (got 0)',
  },
  {
    path: 'space-title-too-long.yaml',
    expected: 'space-title-too-long.yaml:6:10: spec.title: must be at most 50 characters (got 51)',
  },
  {
    path: 'space-id-path.yaml',
    expected: 'space-id-path.yaml:7:7: spec.id: must match the pattern ^[a-zA-Z0-9_-]+$ (got "sp-guides/../../x")',
  },
  {
    path: 'space-edit-mode-bad.yaml',
    expected: 'space-edit-mode-bad.yaml:7:13: spec.editMode: must be one of live, locked (got "readonly")',
  },
  {
    path: 'collection-nested-in-itself.yaml',
    expected:
      'collection-nested-in-itself.yaml:7:11: collection "Product" is nested in itself (through parent "Internal")',
  },
  {
    path: 'collection-description-too-long.yaml',
    expected: 'collection-description-too-long.yaml:7:16: spec.description: must be at most 100 characters (got 101)',
  },
  // Environment variables: only allowed ones are read (none of these is set in the tests' environment)
  {
    path: 'env-unset-allowed.yaml',
    expected: 'env-unset-allowed.yaml:6:10: environment variable "TEAM_TITLE" is not set',
    args: ['--allow-env', 'TEAM_TITLE'],
  },
  {
    path: 'env-not-allowed-organization.yaml',
    expected: `env-not-allowed-organization.yaml:4:17: environment variable "ORG_ID" is not allowed in manifests: ${HOW_TO_ALLOW('ORG_ID')}`,
  },
  {
    path: 'env-not-allowed-with-default.yaml',
    expected: `env-not-allowed-with-default.yaml:6:10: environment variable "HOME" is not allowed in manifests: ${HOW_TO_ALLOW('HOME')}`,
  },
  {
    path: 'env-docops-own.yaml',
    expected:
      'env-docops-own.yaml:6:10: environment variable "DOCOPS_TOKEN" is docops\'s own: DOCOPS_* variables are never interpolated into manifests',
    args: ['--allow-env', 'DOCOPS_*'],
  },
  {
    path: 'env-nested-default-unset.yaml',
    expected: 'env-nested-default-unset.yaml:6:10: environment variable "TEAM_NAME" is not set',
    args: ['--allow-env', 'TEAM_*'],
  },
  {
    path: 'env-unterminated.yaml',
    expected:
      'env-unterminated.yaml:6:10: unterminated variable reference "${DOCOPS_TEAM" (write $${ for a literal ${)',
  },
  {
    path: 'env-invalid-name.yaml',
    expected:
      'env-invalid-name.yaml:6:10: invalid variable reference "${1TEAM}" (names are [A-Za-z_][A-Za-z0-9_]*; write $${ for a literal ${)',
  },
];

/** test/fixtures/bad/config: daemon configs (docops.yaml) that loadConfig must reject with this message. */
export const CONFIG_CASES: BadCase[] = [
  { path: 'unknown-field.yaml', expected: 'unknown-field.yaml:2:1: unknown field "manifestDir"' },
  { path: 'mode-bad.yaml', expected: 'mode-bad.yaml:2:7: mode: must be one of apply, plan (got "dry-run")' },
  {
    path: 'schedule-invalid-cron.yaml',
    expected:
      'schedule-invalid-cron.yaml:2:11: schedule: "*/5 * * *  * * *" is not a valid cron expression (expected 5 or 6 fields but got 7)',
  },
  {
    path: 'schedule-out-of-range.yaml',
    expected: 'schedule-out-of-range.yaml:2:11: schedule: "0 25 * * *" is not a valid cron expression',
  },
  { path: 'listen-port-too-big.yaml', expected: 'listen-port-too-big.yaml:2:9: listen: the port must be 0..65535' },
  { path: 'listen-no-port.yaml', expected: 'listen-no-port.yaml:2:9: listen: must match the pattern' },
  { path: 'concurrency-zero.yaml', expected: 'concurrency-zero.yaml:2:14: concurrency: must be >= 1 (got 0)' },
  {
    path: 'concurrency-string.yaml',
    expected: 'concurrency-string.yaml:2:14: concurrency: must be integer (got string "eight")',
  },
  {
    path: 'concurrency-too-high.yaml',
    expected: 'concurrency-too-high.yaml:2:14: concurrency: must be <= 64 (got 65)',
  },
  {
    path: 'reconcile-secret-short.yaml',
    expected: 'reconcile-secret-short.yaml:2:18: reconcileSecret: must be at least 16 characters (got 7)',
  },
  {
    path: 'secret-and-secret-file.yaml',
    expected:
      'secret-and-secret-file.yaml:3:1: reconcileSecretFile: give reconcileSecret or reconcileSecretFile, not both',
  },
  {
    path: 'retry-max-below-initial.yaml',
    expected: 'retry-max-below-initial.yaml:4:10: retry.maxMs: must not be smaller than retry.initialMs',
  },
  { path: 'retry-unknown-field.yaml', expected: 'retry-unknown-field.yaml:4:3: retry: unknown field "maxDelay"' },
  { path: 'debounce-negative.yaml', expected: 'debounce-negative.yaml:2:13: debounceMs: must be >= 0 (got -5)' },
  {
    path: 'api-url-not-http.yaml',
    expected: 'api-url-not-http.yaml:2:9: apiUrl: must match the pattern ^https?:// (got "ftp://api.example/v1")',
  },
  {
    path: 'prune-not-boolean.yaml',
    expected: 'prune-not-boolean.yaml:3:9: prune.Team: must be boolean (got string "yes")',
  },
  {
    path: 'prune-organization.yaml',
    expected:
      'prune-organization.yaml:4:3: prune: invalid field name "Organization": must be one of Members, Team, Translation, OpenAPISpec, SamlProvider, Collection, Space, Site (got "Organization")',
  },
  {
    path: 'prune-unknown-kind.yaml',
    expected:
      'prune-unknown-kind.yaml:3:3: prune: invalid field name "Teams": must be one of Members, Team, Translation, OpenAPISpec, SamlProvider, Collection, Space, Site (got "Teams")',
  },
  {
    path: 'allow-env-bad-entry.yaml',
    expected:
      'allow-env-bad-entry.yaml:2:20: allowEnv[1]: must match the pattern ^[A-Za-z_][A-Za-z0-9_]*\\*?$ (got "TEAM-*")',
  },
  { path: 'invite-string.yaml', expected: 'invite-string.yaml:2:9: invite: must be boolean (got string "true")' },
  {
    path: 'log-level-bad.yaml',
    expected:
      'log-level-bad.yaml:2:11: logLevel: must be one of trace, debug, info, warn, error, fatal, silent (got "verbose")',
  },
  { path: 'safety-misspelt.yaml', expected: 'safety-misspelt.yaml:3:3: safety: unknown field "delets"' },
  {
    path: 'safety-fraction-above-one.yaml',
    expected: 'safety-fraction-above-one.yaml:4:15: safety.deletes.fraction: must be <= 1 (got 1.5)',
  },
  {
    path: 'safety-kind-misspelt-setting.yaml',
    expected: 'safety-kind-misspelt-setting.yaml:5:7: safety.kinds.Team: unknown field "allowPruneAl"',
  },
  {
    path: 'shutdown-grace-string.yaml',
    expected: 'shutdown-grace-string.yaml:2:18: shutdownGraceMs: must be integer (got string "10s")',
  },
  { path: 'two-documents.yaml', expected: 'two-documents.yaml:3:1: the config file must hold one YAML document' },
  {
    path: 'yaml-syntax.yaml',
    expected:
      'yaml-syntax.yaml:2:7: unclosed "[": the list opened here has no "]" (one written over several lines must indent them more than its key) (YAML: Flow sequence in block collection must be sufficiently indented and end with a ])',
  },
  {
    path: 'missing-manifests.yaml',
    expected: 'missing-manifests.yaml:1:1: manifests: required (the manifests directory; or set DOCOPS_MANIFESTS)',
  },
  { path: 'empty.yaml', expected: 'empty.yaml:1:1: file is empty' },
  { path: 'unset-env.yaml', expected: 'unset-env.yaml:2:9: environment variable "DOCOPS_BAD_API_URL" is not set' },
  { path: 'not-a-mapping.yaml', expected: 'not-a-mapping.yaml:1:1: must be object (got array)' },
  { path: 'binary-junk.yaml', expected: 'binary-junk.yaml:2:1: file is not valid UTF-8 (byte 0xff; binary file?)' },
];
