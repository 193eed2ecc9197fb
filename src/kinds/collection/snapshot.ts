/**
 * Collection in the delete journal and in undo. Deleting a collection deletes the collections nested in it
 * and soft-deletes every space inside them (management-api.md), so the snapshot holds the whole tree: the
 * collections (Collection part) and their spaces with their ids (Space part), which undo restores.
 * Collections themselves cannot be restored: undo recreates them, and documents that named one by its old
 * id name it by title instead. Their grants go with them: the snapshot reads each collection's grants, and the
 * recreated collections get them back through their `access:` lists.
 */
import type { FetchContext, KindUndo, Snapshot, UndoRefs } from '../../model/kind.js';
import { relinkAccess } from '../access/export.js';
import { snapshotAccess } from '../access/snapshot.js';
import {
  COLLECTION_KIND,
  collectionObject,
  collectionsPath,
  type CollectionAux,
  type CollectionObject,
  type CollectionState,
  COLLECTION_ACCESS,
} from './model.js';
import { seg } from '../common.js';
import { relinkParents } from '../parent-refs.js';
import { SPACE_KIND, spaceObject, type SpaceState } from '../space/model.js';

const defined = <T>(x: T | undefined): x is T => x !== undefined;

/** The collection and every collection nested in it, parents first. */
function subtree(root: CollectionObject, all: readonly CollectionObject[]): CollectionObject[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    const id = out[i]!.id;
    out.push(...all.filter((c) => c.fields.parent === id && !out.includes(c)));
  }
  return out;
}

export async function snapshotCollection(ctx: FetchContext, object: CollectionObject): Promise<Snapshot> {
  const all = (await ctx.list(collectionsPath(object.org))).map((c) => collectionObject(object.org, c)).filter(defined);
  const root = all.find((c) => c.id === object.id);
  // Gone since the plan was made: nothing to snapshot, so the step fails (as for any snapshot that cannot be read).
  if (!root) throw new Error(`collection ${object.id} is not in the collections list of ${object.org}`);
  const tree = subtree(root, all);
  const [access, ...spaces] = await Promise.all([
    snapshotAccess(
      ctx,
      object.org,
      COLLECTION_ACCESS,
      tree.map((c) => c.id),
    ),
    ...tree.map((c) => ctx.list(`/collections/${seg(c.id)}/spaces`)),
  ]);
  const collections: CollectionState = { objects: tree, aux: access };
  const inside: SpaceState = {
    objects: spaces
      .flat()
      .map((s) => spaceObject(object.org, s))
      .filter(defined),
  };
  return { [COLLECTION_KIND]: collections, [SPACE_KIND]: inside };
}

/** Parents and grantees undo recreates are named by title (collections are always recreated, so every grant is listed). */
function relink(org: string, state: CollectionState, refs: UndoRefs): CollectionState {
  const relinked = relinkParents(COLLECTION_KIND, org, state, refs);
  const aux = relinkAccess(org, relinked.aux, () => false, refs);
  return aux === relinked.aux ? relinked : { ...relinked, aux };
}

export const collectionUndo: KindUndo<CollectionObject, CollectionAux> = { relink };
