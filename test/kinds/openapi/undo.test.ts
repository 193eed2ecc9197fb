/**
 * OpenAPISpec prune through the journal and undo, against the sandbox: the safety gate counts the spec deletes
 * and the versions they take; the journal keeps each spec's latest raw text (or URL) read right before its delete;
 * undo recreates both specs from that, saying per spec what does not come back (older versions and their ids,
 * the public visibility, a URL's content of then); its `-o` writes a spec's text to a file beside its manifest, as
 * export does, so a spec larger than a manifest may be comes back through manifests that load.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { KINDS } from '../../../src/kinds/index.js';
import { planChanges } from '../../../src/safety/counts.js';
import { createJournal } from '../../../src/safety/journal.js';
import { collectParts, undoRecords } from '../../../src/safety/undo.js';
import { readJournal } from '../../../src/undo/journal-read.js';
import { openApiSpecs, openApiVersions } from '../../../packages/sandbox/src/openapi-records.js';
import { undoFiles, writeUndoFiles } from '../../../src/undo/documents.js';
import { planUndo } from '../../../src/undo/plan.js';
import { checkRestores } from '../../../src/undo/restore.js';
import { loadDesired, planOnce } from '../../helpers/pipeline.js';
import { sandboxPerTest } from '../sandbox-per-test.js';
import { ORG } from '../seed.js';

const start = sandboxPerTest('openapi-undo');

const PETS_V1 = 'openapi: 3.1.0\ninfo:\n  title: Pets\n  version: "1"\npaths: {}\n';
const PETS_V2 = 'openapi: 3.1.0\ninfo:\n  title: Pets\n  version: "2"\npaths: {}\n';
const STORE = '{"openapi":"3.0.3","info":{"title":"Store","version":"1"},"paths":{}}';
const URL = 'https://example.com/openapi.json';

const doc = (slug: string, source: string, prune = false): string =>
  `apiVersion: docops/v1\nkind: OpenAPISpec\nmetadata: { organization: ${ORG} }\n${prune ? 'prune: true\n' : ''}spec:\n  slug: ${slug}\n  source: ${source}\n`;

describe('OpenAPISpec prune, journal and undo', () => {
  it('counts spec and version deletes, journals the latest text, and undo recreates the specs saying what is lost', async () => {
    const { sb, client, dir } = await start();
    mkdirSync(join(dir, 'specs'), { recursive: true });
    const all = (pets: string): void => {
      writeFileSync(join(dir, 'specs', 'pets.yaml'), pets);
      writeFileSync(join(dir, 'specs', 'store.json'), STORE);
      writeFileSync(
        join(dir, 'openapi.yaml'),
        [
          doc('public-api', `{ url: "${URL}" }`),
          doc('pets', '{ file: specs/pets.yaml }'),
          doc('store', '{ file: specs/store.json }'),
        ].join('---\n'),
      );
    };
    all(PETS_V1);
    expect((await applyPlan(client, await planOnce(client, await loadDesired(dir)))).failed).toEqual([]);
    all(PETS_V2);
    expect((await applyPlan(client, await planOnce(client, await loadDesired(dir)))).failed).toEqual([]);
    await client.request('PATCH', `/orgs/${ORG}/openapi/pets`, { body: { visibility: 'public' } });
    const petsId = openApiSpecs(sb.store).where((s) => s.slug === 'pets')[0]!.id;
    expect(openApiVersions(sb.store).where((v) => v.specId === petsId)).toHaveLength(2);

    // Only `store` stays written, under prune: `pets` (2 versions) and `public-api` (1) go.
    rmSync(join(dir, 'specs', 'pets.yaml'));
    writeFileSync(join(dir, 'openapi.yaml'), doc('store', '{ file: specs/store.json }', true));
    const { plan, live } = await computePlan(client, KINDS, await loadDesired(dir));
    expect(plan.steps.map((s) => [s.id, s.phase])).toEqual([
      [`OpenAPISpec/${ORG}/pets#delete`, 'prune'],
      [`OpenAPISpec/${ORG}/public-api#delete`, 'prune'],
    ]);
    // The safety gate counts both spec deletes, and the three versions they take as deletes of their own kind.
    expect(planChanges(plan).map((c) => [c.kind, c.deletes.size, c.cascaded])).toEqual([
      ['OpenAPISpec', 2, 0],
      ['OpenAPISpecVersion', 3, 3],
    ]);

    const journalDir = `${dir}-journal`;
    const journal = createJournal(journalDir, live, { client, kinds: KINDS });
    expect((await applyPlan(client, plan, { beforeStep: journal.beforeStep })).failed).toEqual([]);
    expect(
      openApiSpecs(sb.store)
        .all()
        .map((s) => s.slug),
    ).toEqual(['store']);
    const records = await readJournal(journal.file);
    rmSync(journalDir, { recursive: true, force: true });
    expect(records.map((r) => [r.kind, r.key, r.snapshot])).toEqual([
      ['OpenAPISpec', 'pets', 'complete'],
      ['OpenAPISpec', 'public-api', 'complete'],
    ]);

    const input = collectParts(records, KINDS);
    const checks = await checkRestores(client, input, new Date());
    const result = undoRecords(input, checks.fates, checks.losses);
    const spec = (slug: string, source: object) => ({
      apiVersion: 'docops/v1',
      kind: 'OpenAPISpec',
      metadata: { organization: ORG },
      spec: { slug, source },
    });
    // The text goes to a file beside undo's manifest, as export writes it: the document names it.
    expect(result.documents).toEqual([
      spec('pets', { file: 'openapi/pets.yaml', text: PETS_V2, sha256: expect.any(String) }),
      spec('public-api', { url: URL }),
    ]);
    expect(result.objects.map((o) => [o.key, o.outcome, o.losses])).toEqual([
      [
        'pets',
        'recreate',
        [
          'its 2 versions are not restored: it is recreated with one version of its latest content (version ids change)',
          'it was public; it is recreated private (docops does not manage visibility): make it public again in the app',
        ],
      ],
      [
        'public-api',
        'recreate',
        [
          'it is recreated with a new version of its latest content (version ids change)',
          `it is recreated from its URL, so its content is what ${URL} serves now`,
        ],
      ],
    ]);

    const undo = await planUndo(client, KINDS, undoFiles(result.documents, KINDS), checks.restores);
    expect(undo.plan.steps.map((s) => s.id)).toEqual([
      `OpenAPISpec/${ORG}/pets#create`,
      `OpenAPISpec/${ORG}/public-api#create`,
    ]);
    expect((await applyPlan(client, undo.plan)).failed).toEqual([]);
    const pets = openApiSpecs(sb.store).where((s) => s.slug === 'pets')[0]!;
    expect(
      openApiVersions(sb.store)
        .where((v) => v.specId === pets.id)
        .map((v) => v.text),
    ).toEqual([PETS_V2]);
    expect(openApiSpecs(sb.store).where((s) => s.slug === 'public-api')[0]!.sourceURL).toBe(URL);
  });

  it('undo -o writes a spec larger than a manifest may be to a file beside its manifest, which loads and plans as written', async () => {
    const { sb, client, dir } = await start();
    const line = '    Lorem ipsum ${HOME} dolor sit amet, consectetur adipiscing elit.\n';
    const big = `openapi: 3.1.0\ninfo:\n  title: Big\n  version: "1"\n  description: |\n${line.repeat(Math.ceil((3 * 1024 * 1024) / line.length))}paths: {}\n`;
    mkdirSync(join(dir, 'specs'), { recursive: true });
    writeFileSync(join(dir, 'specs', 'big.yaml'), big);
    writeFileSync(join(dir, 'openapi.yaml'), doc('big', '{ file: specs/big.yaml }'));
    expect((await applyPlan(client, await planOnce(client, await loadDesired(dir)))).failed).toEqual([]);
    // Pruned (a document that keeps only another spec), through the journal.
    rmSync(join(dir, 'specs', 'big.yaml'));
    writeFileSync(join(dir, 'openapi.yaml'), doc('other', `{ url: "${URL}" }`, true));
    const { plan, live } = await computePlan(client, KINDS, await loadDesired(dir));
    const journal = createJournal(`${dir}-journal`, live, { client, kinds: KINDS });
    const deletes = { ...plan, steps: plan.steps.filter((s) => s.phase === 'prune') };
    expect(deletes.steps.map((s) => s.id)).toEqual([`OpenAPISpec/${ORG}/big#delete`]);
    expect((await applyPlan(client, deletes, { beforeStep: journal.beforeStep })).failed).toEqual([]);
    const input = collectParts(await readJournal(journal.file), KINDS);
    rmSync(`${dir}-journal`, { recursive: true, force: true });
    const checks = await checkRestores(client, input, new Date());
    const files = undoFiles(undoRecords(input, checks.fates, checks.losses).documents, KINDS);

    const out = `${dir}-undo`;
    const written = await writeUndoFiles(out, files, '# undo\n');
    try {
      expect(written.map((f) => relative(out, f)).sort()).toEqual([
        join('openapi', 'big.yaml'),
        `undo-OpenAPISpec-${ORG}.yaml`,
      ]);
      const manifest = readFileSync(join(out, `undo-OpenAPISpec-${ORG}.yaml`), 'utf8');
      expect(manifest).toContain('file: openapi/big.yaml');
      expect(manifest.length).toBeLessThan(1024); // the spec is not in it
      expect(readFileSync(join(out, 'openapi', 'big.yaml'), 'utf8')).toBe(big); // as journaled, `${HOME}` as text
      // The written directory loads like any manifests (each within its limit), and plans the recreation.
      const desired = await loadDesired(out);
      expect(desired.get('OpenAPISpec')!.map((e) => (e.spec as { source: { text: string } }).source.text)).toEqual([
        big,
      ]);
      const again = await planOnce(client, desired);
      expect(again.steps.map((s) => s.id)).toEqual([`OpenAPISpec/${ORG}/big#create`]);
      // Undo's own plan is made from the same text and data: the same steps.
      expect((await planUndo(client, KINDS, files, checks.restores)).plan.steps.map((s) => s.id)).toEqual([
        `OpenAPISpec/${ORG}/big#create`,
      ]);
      expect((await applyPlan(client, again)).failed).toEqual([]);
      const spec = openApiSpecs(sb.store).where((s) => s.slug === 'big')[0]!;
      expect(
        openApiVersions(sb.store)
          .where((v) => v.specId === spec.id)
          .map((v) => v.text),
      ).toEqual([big]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
