/** Translation in undo: `POST /translations` takes only a title, so a recreated translation has no languages. */
import type { KindUndo, UndoLoss } from '../core/kind.js';
import { exportTitled } from './common.js';
import type { TranslationObject, TranslationState } from './translation.js';

function losses(_org: string, state: TranslationState): UndoLoss[] {
  return state.objects.flatMap((o) => {
    // A record journaled from the plan alone (no live object found) holds only the step's `before`: no languages.
    const languages = Array.isArray(o.fields.languages) ? o.fields.languages : [];
    if (languages.length === 0) return [];
    return [{ key: o.key, id: o.id, message: `its languages [${languages.join(', ')}] cannot be set through the API: it is recreated without them; set them again in the app` }];
  });
}

/**
 * Documents without `languages`: a document that writes languages the API cannot set is blocked, and undo
 * recreates the translation without them (said in `losses`).
 */
function documents(org: string, state: TranslationState): object[] {
  return exportTitled('Translation', org, state, () => ({}));
}

export const translationUndo: KindUndo<TranslationObject> = { losses, documents };
