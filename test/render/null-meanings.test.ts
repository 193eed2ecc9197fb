/**
 * A null that is a value in the API — a member demoted to guest, an organization or a SAML provider whose default
 * role is guest, a space or collection moved to the top level or left without a default access level, a site grant
 * that takes access away — is shown as `null (meaning)` in the text, markdown and JSON plans, never as "(unset)"
 * or left out. The meaning comes from each kind's definition (KindDefinition.nullMeanings), carried on the step.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import type { Plan } from '../../src/model/plan.js';
import { renderJson } from '../../src/render/json.js';
import { parsePlanJson } from '../../src/plan-file/read-plan.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import type { RunRecord } from '../../src/daemon/run.js';
import { StatusTracker } from '../../src/daemon/status/tracker.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { fastClient, loadDesired, planAndApply, planOnce, tempDir } from '../helpers/pipeline.js';

let sandbox: RunningSandbox | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await sandbox?.close();
  sandbox = client = undefined;
});

function edited(dir: string, file: string, from: string, to: string): void {
  const text = readFileSync(join(dir, file), 'utf8');
  if (!text.includes(from)) throw new Error(`${file} has no ${from}`);
  writeFileSync(join(dir, file), text.replace(from, to));
}

const SAML = `---
apiVersion: docops/v1
kind: SamlProvider
metadata: { organization: org-demo }
spec: { label: Okta, defaultRole: read }
`;

/** The demo organization after config.example (plus erin's site grant and a SAML provider), then manifests setting each such null. */
async function planOfNulls(): Promise<Plan> {
  sandbox = await startSandbox({ seed: 'demo' });
  client = fastClient(sandbox);
  const dir = tempDir('null-meanings');
  cpSync('config.example/manifests', dir, { recursive: true });
  edited(dir, 'site.yaml', '  shareLinks:', '  access:\n    - { email: erin@acme.test, role: read }\n  shareLinks:');
  writeFileSync(join(dir, 'saml.yaml'), SAML);
  expect((await planAndApply(client, await loadDesired(dir))).report.failed).toEqual([]);

  edited(dir, 'members.yaml', '{ email: dan@acme.test, role: review }', '{ email: dan@acme.test, role: null }');
  edited(dir, 'organization.yaml', 'defaultRole: read', 'defaultRole: null');
  edited(dir, 'saml.yaml', 'defaultRole: read', 'defaultRole: null');
  edited(dir, 'spaces.yaml', '  emoji: 🛠\n  parent: Internal', '  emoji: 🛠\n  parent: null');
  edited(
    dir,
    'spaces.yaml',
    '  title: Internal\n  id: col-internal\n',
    '  title: Internal\n  id: col-internal\n  defaultLevel: read\n',
  );
  edited(dir, 'site.yaml', '{ email: erin@acme.test, role: read }', '{ email: erin@acme.test, role: null }');
  return planOnce(client, await loadDesired(dir));
}

/** Each step with a meaningful null: `Kind key field` → the line the renderer must print for it. */
const EXPECTED: [string, string, string][] = [
  ['Members', 'dan@acme.test', 'role: "review" → null (guest)'],
  ['Organization', 'org-demo', 'defaultRole: "read" → null (guest)'],
  ['SamlProvider', 'Okta', 'defaultRole: "read" → null (guest)'],
  ['Space', 'Runbooks', 'parent: "col-internal" → null (top level)'],
  ['Collection', 'Internal', 'defaultLevel: null (no default access) → "read"'],
  ['SiteAccess', 'Acme Help Center/user:erin@acme.test', 'role: "read" → null (no access)'],
];

describe('nulls that mean something in the API', () => {
  it('are shown as null (meaning) in text, markdown and JSON, for every kind that has one', async () => {
    const plan = await planOfNulls();
    const text = renderText(plan);
    const markdown = renderMarkdown(plan);
    const json = JSON.parse(renderJson(plan)) as {
      steps: {
        kind: string;
        key: string;
        nulls?: Record<string, string>;
        before: Record<string, unknown>;
        after: Record<string, unknown>;
      }[];
    };
    for (const [kind, key, line] of EXPECTED) {
      const field = line.slice(0, line.indexOf(':'));
      // Text: `field: before → after` under the step.
      expect(text, `${kind} ${key}`).toContain(`${kind} org-demo/${key}\n      ${line}`);
      // Markdown: one `-` and one `+` line, the null one included.
      const [before, after] = line.slice(field.length + 2).split(' → ');
      expect(markdown, `${kind} ${key}`).toContain(
        `${kind} org-demo/${key}\n-     ${field}: ${before}\n+     ${field}: ${after}`,
      );
      // JSON: the value stays null (the plan is data); the step says what it means.
      const step = json.steps.find((s) => s.kind === kind && s.key === key);
      const meaning = /null \(([^)]+)\)/.exec(line)![1];
      expect(step?.nulls, `${kind} ${key}`).toEqual({ [field]: meaning });
      expect([step?.before[field], step?.after[field]]).toContain(null);
    }
    expect(text).not.toMatch(/→ \(unset\)|\(unset\) →/);

    // The daemon's status JSON (GET /api/status) shows the same.
    const tracker = new StatusTracker({
      mode: 'plan',
      manifestsDir: tempDir('status'),
      role: () => 'single',
      readiness: () => ({ ready: true }),
    });
    tracker.observe(
      {
        id: 1,
        reasons: [],
        result: 'success',
        mode: 'plan',
        startedAt: new Date().toISOString(),
        durationMs: 1,
      } satisfies RunRecord,
      plan,
      undefined,
    );
    const steps = (await tracker.status()).drift?.byKind.flatMap((k) => k.steps) ?? [];
    expect(steps.find((st) => st.kind === 'Members')?.changes).toEqual([
      { field: 'role', live: '"review"', desired: 'null (guest)' },
    ]);
    expect(steps.find((st) => st.kind === 'SiteAccess')?.changes).toEqual([
      { field: 'role', live: '"read"', desired: 'null (no access)' },
    ]);
  });
});

describe('Step.nulls in the JSON plan', () => {
  it('round-trips, and the parser refuses a meaning that is not text', () => {
    const plan: Plan = {
      formatVersion: 1,
      steps: [
        {
          id: 'Members/o/a@x.test#update',
          action: 'update',
          phase: 'update',
          kind: 'Members',
          org: 'o',
          key: 'a@x.test',
          wave: 10,
          before: { role: 'read' },
          after: { role: null },
          nulls: { role: 'guest' },
          dependsOn: [],
          requests: [{ method: 'PATCH', path: '/orgs/o/members/u-a', body: { role: null } }],
        },
      ],
      unmanaged: [],
      warnings: [],
      blocked: [],
    };
    const text = renderJson(plan);
    expect(parsePlanJson(text)).toStrictEqual(plan);
    expect(() => parsePlanJson(text.replace('"role": "guest"', '"role": 1'))).toThrow(
      /steps\[0\]\.nulls\.role: expected a string/,
    );
  });
});
