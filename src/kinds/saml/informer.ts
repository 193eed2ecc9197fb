/** The informer's view of SamlProvider: an event on provider p re-reads p alone in the provider list. */
import type { KindInformer } from '../../model/kind.js';
import { actionOf, below, itemRead } from '../informer-common.js';
import { samlPath } from './model.js';

export const samlInformer: KindInformer = {
  targets: ['saml'],
  stale(change, org) {
    const a = actionOf(change);
    if (!a || a.part !== '') return undefined;
    return [itemRead(samlPath(org), change.id, below(samlPath(org), change.id))];
  },
};
