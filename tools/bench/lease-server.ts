/**
 * The coordination.k8s.io/v1 Lease endpoints as the Kubernetes API server answers them, on 127.0.0.1, for the
 * leader-election tests and the benchmark's takeover (no API server can run here):
 *   GET  /apis/coordination.k8s.io/v1/namespaces/NS/leases/NAME   200 Lease | 404 NotFound Status
 *   POST /apis/coordination.k8s.io/v1/namespaces/NS/leases        201 Lease | 409 AlreadyExists
 *   PUT  /apis/coordination.k8s.io/v1/namespaces/NS/leases/NAME   200 Lease | 409 Conflict when
 *        metadata.resourceVersion is not the stored one (compare-and-swap) | 404 | 422 without a resourceVersion
 * Every write bumps a global resourceVersion. MicroTime fields must carry microseconds, as the server's
 * parser requires. Each client authenticates with its own bearer token, so a test can cut one client off
 * (`partition`): its requests then fail (500, a reset socket, or no answer at all) while the others pass.
 * Every request is recorded with the time it arrived (this process's monotonic clock).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type PartitionMode = 'error' | 'reset' | 'hang';

export interface LeaseEvent {
  at: number;
  client: string;
  method: string;
  status: number;
  /** The holder written by a successful POST/PUT, and the Lease's name. */
  holder?: string;
  lease?: string;
  resourceVersion?: string;
}

interface StoredLease {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: { name: string; namespace: string; resourceVersion: string; uid: string; creationTimestamp: string };
  spec: Record<string, unknown>;
}

export interface FakeLeaseServer {
  url: string;
  /** A kubeconfig (YAML text) for the client with this token. */
  kubeconfig(client: string): string;
  partition(client: string, mode?: PartitionMode): void;
  heal(client: string): void;
  lease(namespace: string, name: string): StoredLease | undefined;
  events: LeaseEvent[];
  close(): Promise<void>;
}

const MICRO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const PATH = /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/([a-z0-9-]+)\/leases(?:\/([a-z0-9.-]+))?$/;

export async function startLeaseServer(): Promise<FakeLeaseServer> {
  const leases = new Map<string, StoredLease>();
  const partitions = new Map<string, PartitionMode>();
  const events: LeaseEvent[] = [];
  const hanging = new Set<ServerResponse>();
  let version = 100;

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) status(res, 500, 'InternalError', 'internal error');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = performance.now();
    const client = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    const record = (code: number, extra: Partial<LeaseEvent> = {}): void =>
      void events.push({ at, client: client ?? '(none)', method, status: code, ...extra });
    if (client === undefined) {
      record(401);
      return status(res, 401, 'Unauthorized', 'Unauthorized');
    }
    const cut = partitions.get(client);
    if (cut === 'hang') {
      record(0);
      hanging.add(res);
      return;
    }
    if (cut === 'reset') {
      record(0);
      req.socket.destroy();
      return;
    }
    if (cut === 'error') {
      record(500);
      return status(res, 500, 'InternalError', 'etcdserver: request timed out');
    }
    const m = PATH.exec(new URL(req.url ?? '/', 'http://x').pathname);
    if (!m) {
      record(404);
      return status(res, 404, 'NotFound', 'the server could not find the requested resource');
    }
    const namespace = m[1]!;
    const name = m[2];
    const key = (n: string): string => `${namespace}/${n}`;
    if (method === 'GET' && name !== undefined) {
      const lease = leases.get(key(name));
      record(lease ? 200 : 404);
      return lease
        ? json(res, 200, lease)
        : status(res, 404, 'NotFound', `leases.coordination.k8s.io "${name}" not found`, name);
    }
    if ((method === 'POST' && name === undefined) || (method === 'PUT' && name !== undefined)) {
      const parsed = parseLease(body);
      if (typeof parsed === 'string') {
        record(422);
        return status(res, 422, 'Invalid', parsed);
      }
      const leaseName = name ?? parsed.metadata.name;
      if (
        typeof leaseName !== 'string' ||
        (name !== undefined && parsed.metadata.name !== undefined && parsed.metadata.name !== name)
      ) {
        record(400);
        return status(res, 400, 'BadRequest', 'the name of the object does not match the name on the URL');
      }
      const existing = leases.get(key(leaseName));
      if (method === 'POST' && existing) {
        record(409);
        return status(res, 409, 'AlreadyExists', `leases.coordination.k8s.io "${leaseName}" already exists`, leaseName);
      }
      if (method === 'PUT') {
        if (!existing) {
          record(404);
          return status(res, 404, 'NotFound', `leases.coordination.k8s.io "${leaseName}" not found`, leaseName);
        }
        const rv = parsed.metadata.resourceVersion;
        if (typeof rv !== 'string' || rv === '') {
          record(422);
          return status(
            res,
            422,
            'Invalid',
            'metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
          );
        }
        if (rv !== existing.metadata.resourceVersion) {
          record(409);
          return status(
            res,
            409,
            'Conflict',
            `Operation cannot be fulfilled on leases.coordination.k8s.io "${leaseName}": the object has been modified; please apply your changes to the latest version and try again`,
            leaseName,
          );
        }
      }
      const stored: StoredLease = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          name: leaseName,
          namespace,
          resourceVersion: String(++version),
          uid: existing?.metadata.uid ?? `uid-${version}`,
          creationTimestamp: existing?.metadata.creationTimestamp ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        },
        spec: parsed.spec,
      };
      leases.set(key(leaseName), stored);
      record(method === 'POST' ? 201 : 200, {
        holder: String(parsed.spec.holderIdentity ?? ''),
        lease: leaseName,
        resourceVersion: stored.metadata.resourceVersion,
      });
      return json(res, method === 'POST' ? 201 : 200, stored);
    }
    record(405);
    return status(res, 405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    kubeconfig: (client) =>
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        `  - name: fake`,
        // Plain HTTP on 127.0.0.1: client-node refuses http:// unless told to skip TLS verification.
        `    cluster: { server: "${url}", insecure-skip-tls-verify: true }`,
        'users:',
        `  - name: ${client}`,
        `    user: { token: "${client}" }`,
        'contexts:',
        `  - name: fake`,
        `    context: { cluster: fake, user: ${client}, namespace: docops }`,
        'current-context: fake',
        '',
      ].join('\n'),
    partition: (client, mode = 'error') => void partitions.set(client, mode),
    heal(client) {
      partitions.delete(client);
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
    lease: (namespace, name) => leases.get(`${namespace}/${name}`),
    events,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The checks the API server makes of a Lease body that matter here; a string says what is wrong. */
function parseLease(text: string): { metadata: Record<string, unknown>; spec: Record<string, unknown> } | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  if (!isObject(body) || body.kind !== 'Lease' || body.apiVersion !== 'coordination.k8s.io/v1')
    return 'kind/apiVersion: must be Lease, coordination.k8s.io/v1';
  const metadata = isObject(body.metadata) ? body.metadata : {};
  const spec = isObject(body.spec) ? body.spec : {};
  for (const f of ['acquireTime', 'renewTime']) {
    if (spec[f] !== undefined && (typeof spec[f] !== 'string' || !MICRO_TIME.test(spec[f])))
      return `spec.${f}: must be RFC 3339 with microseconds (got ${JSON.stringify(spec[f])})`;
  }
  const d = spec.leaseDurationSeconds;
  if (d !== undefined && (typeof d !== 'number' || !Number.isInteger(d) || d <= 0))
    return 'spec.leaseDurationSeconds: must be greater than 0';
  const t = spec.leaseTransitions;
  if (t !== undefined && (typeof t !== 'number' || !Number.isInteger(t) || t < 0))
    return 'spec.leaseTransitions: must be greater than or equal to 0';
  return { metadata, spec };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function status(res: ServerResponse, code: number, reason: string, message: string, name?: string): void {
  json(res, code, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(name !== undefined ? { details: { name, group: 'coordination.k8s.io', kind: 'leases' } } : {}),
    code,
  });
}
