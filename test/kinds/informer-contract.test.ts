/**
 * Every registered kind says how the informer follows it (KindDefinition.informer), each audit target type is
 * claimed by one kind, and every type the sandbox records events on is claimed: an event nobody claims is a gap,
 * and the organization would be read whole at every poll.
 */
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { auditedObject } from '../../packages/sandbox/src/audit-objects.js';

describe('the kinds and the audit log', () => {
  it('every kind declares its informer; each target type has one kind', () => {
    expect(KINDS.filter((k) => !k.informer).map((k) => k.kind)).toEqual([]);
    const types = KINDS.flatMap((k) => k.informer?.targets ?? []);
    expect(types.length).toBe(new Set(types).size);
  });

  it('every object type the sandbox records events on is claimed by a kind', () => {
    const find = <T>(): T | undefined => ({ id: 'x', orgId: 'o', title: 't', slug: 's', email: 'e' }) as T;
    const tables = [
      'orgs',
      'members',
      'teams',
      'teamMembers',
      'translations',
      'collections',
      'spaces',
      'contentOrder',
      'contentGrants',
      'sites',
      'siteSections',
      'siteSectionGroups',
      'siteSpaces',
      'siteShareLinks',
      'siteCustomizations',
      'siteRedirects',
      'siteExternalLinks',
      'sitePublishingAuth',
      'samlProviders',
      'openApiSpecs',
      'openApiVersions',
    ];
    const row = {
      id: 'x',
      orgId: 'o',
      userId: 'u',
      teamId: 't',
      siteId: 's',
      specId: 'p',
      targetType: 'space',
      targetId: 'x',
      title: 't',
      slug: 's',
      label: 'l',
    };
    const recorded = new Set(tables.map((t) => auditedObject(t, row, find)?.type));
    expect(recorded.has(undefined)).toBe(false);
    const claimed = new Set(KINDS.flatMap((k) => k.informer?.targets ?? []));
    expect([...recorded].filter((t) => !claimed.has(t!))).toEqual([]);
  });

  it('each kind answers the actions the sandbox records on its objects, and no action it does not know', () => {
    const view = { lists: () => [], prune: () => false };
    for (const k of KINDS) {
      for (const type of k.informer!.targets) {
        expect(
          k.informer!.stale({ type, id: 'o', action: `${type}.updated` }, 'o', view),
          `${k.kind} ${type}.updated`,
        ).toBeDefined();
        expect(
          k.informer!.stale({ type, id: 'o', action: `${type}.frobbed` }, 'o', view),
          `${k.kind} ${type}.frobbed`,
        ).toBeUndefined();
        expect(
          k.informer!.stale({ type, id: 'o', action: `${type}.widget.created` }, 'o', view),
          `${k.kind} ${type}.widget.created`,
        ).toBeUndefined();
      }
    }
  });
});
