/**
 * The informer's view of OpenAPISpec (its objects are named by slug): an event on a spec or one of its versions
 * re-reads the spec alone in the spec list, and everything read below its path (versions, the latest text).
 */
import type { KindInformer } from '../../model/kind.js';
import { actionOf, itemRead } from '../informer-common.js';
import { specPath, specsPath } from './model.js';

export const openApiInformer: KindInformer = {
  targets: ['openapi'],
  stale(change, org) {
    const a = actionOf(change);
    if (!a || (a.part !== '' && a.part !== 'version')) return undefined;
    const path = specPath(org, change.id);
    return [itemRead(specsPath(org), change.id, path, { key: 'slug' }), { under: path }];
  },
};
