/**
 * The Kubernetes client is optional (package.json: an optional peer; the image has it): `ha: {mode: kubernetes}`
 * without it is a UsageError that says how to add it, told apart from any other failed load, which passes through.
 * The errors here are Node's own, from real loads in an empty directory; the installed tarball's daemon is
 * tested end to end in test/pack/pack.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/model/errors.js';
import {
  isMissingPackage,
  KUBERNETES_CLIENT,
  KUBERNETES_CLIENT_RANGE,
  kubernetesClientMissing,
} from '../../src/daemon/ha/leadership.js';
import { REPO } from './build.js';

/** What `require(name)` throws from a file in `dir`. */
function requireError(dir: string, name: string): unknown {
  try {
    createRequire(join(dir, 'index.js'))(name);
  } catch (err) {
    return err;
  }
  throw new Error(`${name} loaded from ${dir}`);
}

/** What `import(name)` rejects with in a node process whose working directory is `dir` (vitest resolves its own way). */
function importError(dir: string, name: string): { code: string; message: string } {
  const script = `import(${JSON.stringify(name)}).then(() => console.log('null'), (e) => console.log(JSON.stringify({ code: e.code, message: e.message })))`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' }),
  ) as { code: string; message: string };
}

describe('ha without the Kubernetes client', () => {
  const empty = mkdtempSync(join(tmpdir(), 'docops-no-k8s-'));

  it('a require or an import of the missing client is recognised', () => {
    const required = requireError(empty, KUBERNETES_CLIENT);
    expect((required as NodeJS.ErrnoException).code).toBe('MODULE_NOT_FOUND');
    expect(isMissingPackage(required, KUBERNETES_CLIENT)).toBe(true);
    const imported = importError(empty, KUBERNETES_CLIENT);
    expect(imported.code).toBe('ERR_MODULE_NOT_FOUND');
    expect(isMissingPackage(imported, KUBERNETES_CLIENT)).toBe(true);
  });

  it('a client that is there but fails to load its own dependency is not taken for a missing client', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docops-broken-k8s-'));
    const pkg = join(dir, 'node_modules', ...KUBERNETES_CLIENT.split('/'));
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({ name: KUBERNETES_CLIENT, version: '1.4.0', main: 'index.js' }),
    );
    writeFileSync(join(pkg, 'index.js'), "require('a-dependency-that-is-gone');\n");
    const err = requireError(dir, KUBERNETES_CLIENT);
    expect((err as NodeJS.ErrnoException).code).toBe('MODULE_NOT_FOUND');
    expect(isMissingPackage(err, KUBERNETES_CLIENT)).toBe(false);
    expect(isMissingPackage(requireError(empty, 'another-package'), KUBERNETES_CLIENT)).toBe(false);
    expect(isMissingPackage(new Error(`Cannot find module '${KUBERNETES_CLIENT}'`), KUBERNETES_CLIENT)).toBe(false); // no code: not Node's
  });

  it('says what is missing and how to add it, as a UsageError carrying the cause', () => {
    const cause = requireError(empty, KUBERNETES_CLIENT);
    const err = kubernetesClientMissing(cause);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.cause).toBe(cause);
    expect(err.message).toContain('ha: {mode: kubernetes} needs @kubernetes/client-node');
    expect(err.message).toContain(`npm install -g ${KUBERNETES_CLIENT}@${KUBERNETES_CLIENT_RANGE}`);
    expect(err.message).toContain('container image');
    expect(err.message).not.toContain(empty); // the require stack stays in the cause
  });

  it('names the range package.json declares', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(pkg.peerDependencies![KUBERNETES_CLIENT]).toBe(KUBERNETES_CLIENT_RANGE);
    expect(pkg.peerDependenciesMeta![KUBERNETES_CLIENT]).toEqual({ optional: true });
    expect(pkg.devDependencies![KUBERNETES_CLIENT]).toBe(KUBERNETES_CLIENT_RANGE); // the tests and the image use it
    expect(pkg.dependencies![KUBERNETES_CLIENT]).toBeUndefined();
  });
});
