/** Organizations for the fleet tests: each its own sandbox (its own token, its own rate limit) and manifests. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '@docops/sandbox';

export interface TestOrg {
  id: string;
  token: string;
  /** The token's variable (tokenEnv). */
  env: string;
  sandbox: RunningSandbox;
}

/** The organizations of `ids`, each in a sandbox of its own with a small generated organization. */
export async function startOrgs(
  ids: string[],
  options: (id: string) => Partial<SandboxOptions> = () => ({}),
): Promise<TestOrg[]> {
  return Promise.all(
    ids.map(async (id) => {
      const token = randomBytes(16).toString('hex'); // random, as real tokens are (one holding the id would redact it)
      const sandbox = await startSandbox({ seed: { large: 40, org: id }, token, ...options(id) });
      return { id, token, env: `TOKEN_${id.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}`, sandbox };
    }),
  );
}

export function fleetTeamYaml(org: string, title: string): string {
  return [
    'apiVersion: docops/v1',
    'kind: Team',
    'metadata:',
    `  organization: ${org}`,
    'spec:',
    `  title: ${title}`,
    '',
  ].join('\n');
}

/** A root with one manifests directory per organization (a Team each) and a docops.yaml naming them. */
export function fleetDir(
  orgs: TestOrg[],
  extra: string[] = [],
  team = (o: TestOrg) => fleetTeamYaml(o.id, `Fleet ${o.id}`),
): { root: string; config: string } {
  const root = mkdtempSync(join(tmpdir(), 'docops-fleet-'));
  for (const o of orgs) {
    mkdirSync(join(root, 'orgs', o.id), { recursive: true });
    writeFileSync(join(root, 'orgs', o.id, 'team.yaml'), team(o));
  }
  const lines = [
    'listen: 127.0.0.1:0',
    'journalDir: ./journal',
    'organizations:',
    ...orgs.flatMap((o) => [`  - id: ${o.id}`, `    manifests: ./orgs/${o.id}`, `    tokenEnv: ${o.env}`]),
    ...extra,
    '',
  ];
  writeFileSync(join(root, 'docops.yaml'), lines.join('\n'));
  return { root, config: join(root, 'docops.yaml') };
}

/** Team titles of an organization's sandbox. */
export async function orgTeams(o: TestOrg): Promise<string[]> {
  const res = await fetch(`${o.sandbox.url}/orgs/${o.id}/teams?limit=1000`, {
    headers: { authorization: `Bearer ${o.token}` },
  });
  return ((await res.json()) as { items: { title: string }[] }).items.map((t) => t.title).sort();
}

/**
 * One API address for every organization, as the real API is: each request goes to the sandbox of its bearer
 * token (401 for an unknown one, counted). Records which organization each request was for.
 */
export async function startTokenRouter(
  orgs: TestOrg[],
): Promise<{ url: string; unknownTokens: () => number; close(): Promise<void> }> {
  let unknown = 0;
  const server = createServer((req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const org = orgs.find((o) => o.token === token);
    if (!org) {
      unknown++;
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":{"code":401,"message":"unknown token"}}');
      return;
    }
    const target = new URL(org.sandbox.origin);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    unknownTokens: () => unknown,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
