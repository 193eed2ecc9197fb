/**
 * Translation: organization translation settings, identity by title or pinned id. Create (POST {title}),
 * rename by pinned id (PUT {title}), delete only under prune. `languages` cannot be set or changed through the
 * API: when a manifest writes languages the translation does not have (or would not have once created), the
 * entry is blocked (the plan can never reach it), not warned about.
 */
import type {
  DesiredEntry,
  DiffContext,
  DiffResult,
  FetchContext,
  KindDefinition,
  KindUndo,
  LiveKindState,
  LiveObject,
  UndoLoss,
} from '../model/kind.js';
import { ref } from '../model/refs.js';
import type { ManifestDocument } from '../model/document.js';
import { blockEntry, isRecord, makeStep, orgPath, sameValue, seg, stepId, exportTitled } from './common.js';
import { titledEntry, withDisplayKeys, matchByIdOrTitle, stalePinWarnings } from './match.js';
import { uniqueLiveKey, unmatchedLive } from './unmatched.js';
import { translationSchema, type TranslationManifestSpec } from './generated/translation.js';
import { recoverByKey } from './recover.js';
import { actionOf, below, itemRead } from './informer-common.js';

const KIND = 'Translation';
const DEPTH = 20;

/** The spec as written: nothing in it needs normalising. */
export type TranslationSpec = TranslationManifestSpec;

export interface TranslationFields {
  title: string;
  languages: string[];
}

export type TranslationObject = LiveObject<TranslationFields>;
export type TranslationState = LiveKindState<TranslationObject>;

const translationsPath = (org: string): string => `${orgPath(org)}/translations`;

function toDesired(doc: ManifestDocument<TranslationSpec>): DesiredEntry<TranslationSpec>[] {
  return [titledEntry(KIND, doc, doc.spec)];
}

function translationObject(org: string, t: unknown): TranslationObject | undefined {
  if (!isRecord(t) || typeof t['id'] !== 'string' || typeof t['title'] !== 'string') return undefined;
  const fields: TranslationFields = {
    title: t['title'],
    languages: Array.isArray(t['languages']) ? t['languages'].map(String) : [],
  };
  return { kind: KIND, org, key: t['title'], id: t['id'], fields };
}

async function fetch(ctx: FetchContext, org: string): Promise<TranslationState> {
  const items = await ctx.list(translationsPath(org));
  return { objects: items.map((t) => translationObject(org, t)).filter((o) => o !== undefined) };
}

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

function diff(
  ctx: DiffContext,
  org: string,
  entries: DesiredEntry<TranslationSpec>[],
  live: TranslationState,
): DiffResult {
  const desired = withDisplayKeys(entries);
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [], blocked: [] };
  const { matched, unmatched, stalePins } = matchByIdOrTitle(KIND, desired, live.objects);
  result.warnings.push(...stalePinWarnings(KIND, org, stalePins));
  for (const entry of desired) {
    const spec = entry.spec;
    const current = matched.get(entry);
    if (!current) {
      if (spec.languages && spec.languages.length > 0) {
        blockEntry(
          result,
          entry,
          entry.doc.pos(['spec', 'languages']),
          `languages cannot be set through the API (a new translation has none): create it in the app with [${spec.languages.join(', ')}] and pin its id, or leave languages out`,
        );
        continue;
      }
      const id = stepId(KIND, org, entry.key, 'create');
      result.steps.push(
        makeStep({
          id,
          action: 'create',
          phase: 'create',
          kind: KIND,
          org,
          key: entry.key,
          wave: DEPTH,
          before: null,
          after: { title: spec.title },
          requests: [
            {
              method: 'POST',
              path: translationsPath(org),
              body: { title: spec.title },
              capture: { id: 'id' },
              recover: recoverByKey(live.objects, spec.title),
            },
          ],
          entry,
        }),
      );
      ctx.register(KIND, org, entry.key, ref(id));
      continue;
    }
    ctx.register(KIND, org, entry.key, current.id);
    const have = current.fields;
    if (spec.languages && !sameValue(sorted(spec.languages), sorted(have.languages))) {
      blockEntry(
        result,
        entry,
        entry.doc.pos(['spec', 'languages']),
        `languages are [${have.languages.join(', ')}], the manifest says [${spec.languages.join(', ')}], and the API cannot change them: change them in the app, or write the live ones`,
      );
      continue;
    }
    if (have.title === spec.title) continue;
    result.steps.push(
      makeStep({
        id: stepId(KIND, org, entry.key, 'update'),
        action: 'update',
        phase: 'update',
        kind: KIND,
        org,
        key: entry.key,
        wave: DEPTH,
        before: { title: have.title },
        after: { title: spec.title },
        requests: [{ method: 'PUT', path: `${translationsPath(org)}/${seg(current.id)}`, body: { title: spec.title } }],
        entry,
        note: `rename translation ${current.id}`,
      }),
    );
  }

  unmatchedLive(result, {
    kind: KIND,
    org,
    prune: ctx.prune(KIND, org),
    objects: unmatched,
    key: uniqueLiveKey(unmatched),
    wave: () => DEPTH,
    path: (o) => `${translationsPath(org)}/${seg(o.id)}`,
    before: (o) => ({ title: o.key }),
  });
  return result;
}

function exportDocs(org: string, live: TranslationState): object[] {
  return exportTitled(KIND, org, live, (o) => (o.fields.languages.length > 0 ? { languages: o.fields.languages } : {}));
}

/** Undo: `POST /translations` takes only a title, so a recreated translation has no languages. */
function undoLosses(_org: string, state: TranslationState): UndoLoss[] {
  return state.objects.flatMap((o) => {
    // A record journaled from the plan alone (no live object found) holds only the step's `before`: no languages.
    const languages = Array.isArray(o.fields.languages) ? o.fields.languages : [];
    if (languages.length === 0) return [];
    return [
      {
        key: o.key,
        id: o.id,
        message: `its languages [${languages.join(', ')}] cannot be set through the API: it is recreated without them; set them again in the app`,
      },
    ];
  });
}

/**
 * Undo's documents, without `languages`: a document that writes languages the API cannot set is blocked, and undo
 * recreates the translation without them (said in its losses).
 */
function undoDocuments(org: string, state: TranslationState): object[] {
  return exportTitled(KIND, org, state, () => ({}));
}

const translationUndo: KindUndo<TranslationObject> = { losses: undoLosses, documents: undoDocuments };

export const translationKind: KindDefinition<TranslationSpec, TranslationObject, unknown, TranslationManifestSpec> = {
  kind: KIND,
  identity: 'title, or the pinned spec.id (which allows renaming)',
  schema: translationSchema,
  depth: DEPTH,
  scope: {},
  toDesired,
  fetch,
  diff,
  export: exportDocs,
  undo: translationUndo,
  // An event on translation t re-reads t alone in the list.
  informer: {
    targets: ['translation'],
    stale(change, org) {
      const a = actionOf(change);
      return a && a.part === ''
        ? [itemRead(translationsPath(org), change.id, below(translationsPath(org), change.id))]
        : undefined;
    },
  },
};
