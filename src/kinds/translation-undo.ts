/** Translation in undo: `POST /translations` takes only a title, so a recreated translation has no languages. */
import type { KindUndo, LiveKindState, UndoLoss } from '../core/kind.js';
import { exportTitled } from './common.js';

function losses(_org: string, state: LiveKindState): UndoLoss[] {
  return state.objects.flatMap((o) => {
    const languages = Array.isArray(o.fields['languages']) ? o.fields['languages'].map(String) : [];
    if (languages.length === 0) return [];
    return [{ key: o.key, id: o.id, message: `its languages [${languages.join(', ')}] cannot be set through the API: it is recreated without them; set them again in the app` }];
  });
}

/**
 * Documents without `languages`: a document that writes languages the API cannot set is blocked, and undo
 * recreates the translation without them (said in `losses`).
 */
function documents(org: string, state: LiveKindState): object[] {
  return exportTitled('Translation', org, state, () => ({}));
}

export const translationUndo: KindUndo = { losses, documents };
