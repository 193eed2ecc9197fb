/**
 * Translation: organization translation settings, identity by title or pinned id (the loop: titled.ts). Create
 * (POST {title}), rename by pinned id (PUT {title}), delete only under prune. `languages` cannot be set or changed
 * through the API: an entry writing languages the translation does not have (or would not have once created) is
 * blocked (the plan can never reach it), not warned about.
 */
import type { DesiredEntry, DiffContext, FetchContext, KindDefinition, LiveKindState } from '../model/kind.js';
import type { LiveObject, UndoLoss } from '../model/kind.js';
import { blockEntry, orgPath, sameValue, seg, exportTitled } from './common.js';
import { ownItemInformer } from './informer-common.js';
import { titledEntry } from './match.js';
import { recoverByKey } from './recover.js';
import { BLOCKED, BLOCKED_KEEP_ID, createRequest, createStep, diffTitled, titledObject, updateStep } from './titled.js';
import { translationSchema, type TranslationManifestSpec as TranslationSpec } from './generated/translation.js';

const KIND = 'Translation';
const DEPTH = 20;
type TranslationObject = LiveObject<{ title: string; languages: string[] }>;
type TranslationState = LiveKindState<TranslationObject>;
const path = (org: string): string => `${orgPath(org)}/translations`;
const sorted = (xs: readonly string[]): string[] => [...xs].sort();

async function fetch(ctx: FetchContext, org: string): Promise<TranslationState> {
  const languages = (t: Record<string, unknown>): string[] => (Array.isArray(t['languages']) ? t['languages'] : []);
  const read = (t: unknown) =>
    titledObject(KIND, org, t, (r, title) => ({ title, languages: languages(r).map(String) }));
  return { objects: (await ctx.list(path(org))).map(read).filter((o) => o !== undefined) };
}

function diff(ctx: DiffContext, org: string, entries: DesiredEntry<TranslationSpec>[], live: TranslationState) {
  return diffTitled({ kind: KIND, depth: DEPTH }, ctx, org, entries, live.objects, (t) => ({
    create(entry) {
      const { title, languages = [] } = entry.spec;
      if (languages.length > 0) {
        const why = `languages cannot be set through the API (a new translation has none): create it in the app with [${languages.join(', ')}] and pin its id, or leave languages out`;
        blockEntry(t.result, entry, entry.doc.pos(['spec', 'languages']), why);
        return BLOCKED;
      }
      const recover = recoverByKey(live.objects, title);
      return [createStep(t, entry, { after: { title }, requests: [createRequest(path(org), { title }, recover)] })];
    },
    update(entry, current) {
      const { title, languages } = entry.spec;
      const have = current.fields;
      if (languages && !sameValue(sorted(languages), sorted(have.languages))) {
        const why = `languages are [${have.languages.join(', ')}], the manifest says [${languages.join(', ')}], and the API cannot change them: change them in the app, or write the live ones`;
        blockEntry(t.result, entry, entry.doc.pos(['spec', 'languages']), why);
        return BLOCKED_KEEP_ID;
      }
      if (have.title === title) return [];
      const rename = { method: 'PUT' as const, path: `${path(org)}/${seg(current.id)}`, body: { title } };
      const note = `rename translation ${current.id}`;
      return [updateStep(t, entry, { before: { title: have.title }, after: { title }, requests: [rename], note })];
    },
    prune: () => ({ path: (o) => `${path(org)}/${seg(o.id)}` }),
  }));
}

/** Undo: `POST /translations` takes only a title, so a recreated translation has no languages. */
function undoLosses(_org: string, state: TranslationState): UndoLoss[] {
  // A record journaled from the plan alone (no live object found) holds only the step's `before`: no languages.
  const languagesOf = (o: TranslationObject): string[] => (Array.isArray(o.fields.languages) ? o.fields.languages : []);
  return state.objects
    .filter((o) => languagesOf(o).length > 0)
    .map((o) => ({
      key: o.key,
      id: o.id,
      message: `its languages [${languagesOf(o).join(', ')}] cannot be set through the API: it is recreated without them; set them again in the app`,
    }));
}

export const translationKind: KindDefinition<TranslationSpec, TranslationObject, unknown, TranslationSpec> = {
  kind: KIND,
  identity: 'title, or the pinned spec.id (which allows renaming)',
  schema: translationSchema,
  depth: DEPTH,
  scope: {},
  toDesired: (doc) => [titledEntry(KIND, doc, doc.spec)],
  fetch,
  diff,
  export: (org, live) =>
    exportTitled(KIND, org, live, ({ fields: { languages } }) => (languages.length > 0 ? { languages } : {})),
  // Undo's documents leave `languages` out: undo recreates the translation without them (said in its losses).
  undo: { losses: undoLosses, documents: (org, state) => exportTitled(KIND, org, state, () => ({})) },
  informer: ownItemInformer('translation', path),
};
