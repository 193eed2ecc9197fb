/**
 * Response types of the resources docops manages. Based on the official `@gitbook/api` types (type-only
 * imports, so the package stays a dev dependency), adjusted where management-api.md (normative) differs:
 *  - `Plain<T>` turns the package's `declare enum`s into their string literal unions, so plain JSON
 *    values like `'admin'` type-check (a string enum type would reject them);
 *  - fields the package marks required but management-api.md does not list are made optional, so an
 *    answer that follows management-api.md is well-typed;
 *  - fields only management-api.md has (Site.agentsContext, TranslationSettings) are declared here.
 */
// The package's index.d.ts re-exports './client' without an extension, which NodeNext resolution rejects,
// and its exports map hides dist/; so the declarations are imported by file. Type-only: erased at build.
import type * as Api from '../../node_modules/@gitbook/api/dist/client.js';

/** Enum-typed fields as string literal unions, recursively. */
export type Plain<T> = T extends string
  ? `${T}`
  : T extends readonly (infer U)[]
    ? Plain<U>[]
    : T extends object
      ? { [K in keyof T]: Plain<T[K]> }
      : T;

/** T with the keys K made optional. */
type Relax<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

export type OrganizationMember = Plain<Relax<Api.OrganizationMember, 'sites'>>;
export type OrganizationTeamMember = Plain<Omit<Api.OrganizationTeamMember, 'organization'>> & {
  organization: OrganizationMember;
};

export type Site = Plain<Relax<Api.Site, 'appliedType' | 'defaultLevel' | 'permissions' | 'features'>> & {
  /** Whether an agent may access the site (management-api.md; not in @gitbook/api 0.202). */
  agentsContext: 'excluded' | 'included';
};

/**
 * Translation settings as management-api.md describes them. `@gitbook/api`'s `Translation` is a
 * different object (a translation sync run), so this one is our own.
 */
export interface TranslationSettings {
  object: 'translation-settings';
  id: string;
  title: string;
  languages: string[];
  createdAt: string;
  updatedAt: string;
  permissions?: { view: boolean; edit: boolean };
  urls?: { location: string };
}
