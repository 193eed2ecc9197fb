/**
 * User text is data: titles that read exactly like docops's own ref placeholders (`<<ref:STEP.OUTPUT>>`), even
 * naming steps that exist in the same plan, are sent as written, and the organization ends up with those
 * literal titles. Before refs were recorded places, such a title was taken for a ref (internal error, or the
 * title replaced by another object's id).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collections, spaces, teams } from '../../packages/sandbox/src/records.js';
import { loadDesired, planAndApply, planOnce } from '../helpers/pipeline.js';
import { sandboxPerTest } from '../kinds/sandbox-per-test.js';

const start = sandboxPerTest('injection');

const doc = (kind: string, spec: string[]): string =>
  [
    'apiVersion: docops/v1',
    `kind: ${kind}`,
    'metadata: { organization: org-demo }',
    'spec:',
    ...spec.map((l) => `  ${l}`),
  ].join('\n') + '\n';

describe('titles that look like refs', () => {
  it('are created, nested and compared as the literal text, never substituted', async () => {
    const { sb, client, dir } = await start();
    const teamTitle = '<<ref:Team/org-demo/Security#create.id>>';
    const collectionTitle = '<<ref:Collection/org-demo/Docs#create.id>>';
    const spaceTitle = '<<ref:Space/org-demo/Notes#create.id>>';
    writeFileSync(
      join(dir, 'teams.yaml'),
      doc('Team', ['title: Security']) + '---\n' + doc('Team', [`title: "${teamTitle}"`]),
    );
    writeFileSync(
      join(dir, 'collections.yaml'),
      doc('Collection', ['title: Docs']) + '---\n' + doc('Collection', [`title: "${collectionTitle}"`, 'parent: Docs']),
    );
    writeFileSync(
      join(dir, 'spaces.yaml'),
      doc('Space', ['title: Notes', `parent: "${collectionTitle}"`]) +
        '---\n' +
        doc('Space', [`title: "${spaceTitle}"`, 'parent: Docs']),
    );

    const desired = await loadDesired(dir);
    const { report } = await planAndApply(client, desired);
    expect(report.failed).toEqual([]);

    const teamTitles = teams(sb.store)
      .all()
      .map((t) => t.title);
    expect(teamTitles).toEqual(expect.arrayContaining(['Security', teamTitle]));
    const cols = collections(sb.store).all();
    const docs = cols.find((c) => c.title === 'Docs')!;
    const lookalike = cols.find((c) => c.title === collectionTitle)!;
    expect(lookalike.parent).toBe(docs.id);
    const sp = spaces(sb.store).all();
    expect(sp.find((s) => s.title === 'Notes')!.parent).toBe(lookalike.id);
    expect(sp.find((s) => s.title === spaceTitle)!.parent).toBe(docs.id);

    expect((await planOnce(client, desired)).steps).toEqual([]);
  });
});
