/**
 * OpenAPISpec in the delete journal and in undo. The API deletes a spec with all its versions and keeps nothing,
 * so the snapshot reads, right before the delete, the spec, its version list and its latest version's raw text
 * (not a secret; up to the 25 MiB docops reads from a spec file): undo recreates the spec from that text, which it
 * writes to a file beside its manifest as export does (`source: {file: openapi/<slug>.<json|yaml>}`: a spec may be
 * far larger than a manifest may be), or from its URL. What cannot come back is said per spec (UndoLoss).
 */
import type { FetchContext, KindUndo, Snapshot, UndoLoss } from '../../model/kind.js';
import { manifestDoc } from '../common.js';
import { textSource } from './export.js';
import {
  digestOf,
  OPENAPI_KIND,
  readLatestRaw,
  specObject,
  specPath,
  versionIds,
  type OpenApiAux,
  type OpenApiObject,
  type OpenApiState,
} from './model.js';

export async function snapshotSpec(ctx: FetchContext, object: OpenApiObject): Promise<Snapshot> {
  const path = specPath(object.org, object.key);
  const o = specObject(object.org, await ctx.get(path)) ?? object;
  const [raw, versions] = await Promise.all([
    readLatestRaw(ctx, o),
    o.fields.lastVersion === null ? Promise.resolve([]) : ctx.list(`${path}/versions`),
  ]);
  o.fields.latestSha256 = raw ? digestOf(raw.text) : null;
  const aux: OpenApiAux = { versions: { [o.id]: versionIds(versions) }, ...(raw ? { texts: { [o.id]: raw } } : {}) };
  const part: OpenApiState = { objects: [o], aux };
  return { [OPENAPI_KIND]: part };
}

/** The source undo recreates a spec from: its URL, or its latest raw text as a file; none when it had neither. */
function undoSource(o: OpenApiObject, state: OpenApiState): object | undefined {
  return typeof o.fields.sourceURL === 'string' ? { url: o.fields.sourceURL } : textSource(o, state);
}

function documents(org: string, state: OpenApiState): object[] {
  return [...state.objects]
    .sort((a, b) => a.key.localeCompare(b.key))
    .flatMap((o) => {
      const source = undoSource(o, state);
      return source ? [manifestDoc(OPENAPI_KIND, org, { slug: o.key, source })] : [];
    });
}

function losses(_org: string, state: OpenApiState): UndoLoss[] {
  const out: UndoLoss[] = [];
  for (const o of state.objects) {
    const loss = (message: string): void => void out.push({ key: o.key, id: o.id, message });
    // A record journaled from the plan alone holds only the step's `before`: nothing to recreate it from.
    const f = o.fields;
    if (!undoSource(o, state)) {
      loss(
        'its content cannot come back: the journal holds no raw text of its latest version (none was published, the API had none for it, or only the plan was journaled) and no URL; publish it again from its file',
      );
      continue;
    }
    const versions = state.aux?.versions?.[o.id]?.length ?? 0;
    loss(
      versions > 1
        ? `its ${versions} versions are not restored: it is recreated with one version of its latest content (version ids change)`
        : 'it is recreated with a new version of its latest content (version ids change)',
    );
    if (typeof f.sourceURL === 'string')
      loss(`it is recreated from its URL, so its content is what ${f.sourceURL} serves now`);
    if (f.visibility === 'public')
      loss(
        'it was public; it is recreated private (docops does not manage visibility): make it public again in the app',
      );
  }
  return out;
}

export const openApiUndo: KindUndo<OpenApiObject, OpenApiAux> = { documents, losses };
