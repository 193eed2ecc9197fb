/**
 * Every limit of management-api.md's Limits table (and the field types/enums) that the sandbox implements,
 * at the boundary: the value just inside is accepted, the value just outside is a 400 naming field and rule.
 */
import { describe, expect, it } from 'vitest';
import { sandbox, type Client } from './helpers.js';

const ORG = '/orgs/org-demo';
const s = (n: number, ch = 'a'): string => ch.repeat(n);
const uri = (n: number): string => 'https://x.test/' + s(n - 'https://x.test/'.length);

interface Case {
  name: string;
  method: string;
  path: string;
  field: string;
  ok: unknown[];
  bad: [value: unknown, rule: RegExp][];
  /** Other fields the body needs. */
  base?: Record<string, unknown>;
  /** What must exist first (ids the ok values name). */
  setup?: (call: Client['call']) => Promise<unknown>;
}

const CASES: Case[] = [
  {
    name: 'org title 2..255',
    method: 'PATCH',
    path: ORG,
    field: 'title',
    ok: ['ab', s(255)],
    bad: [
      ['a', /at least 2/],
      [s(256), /at most 255/],
      [7, /must be a string/],
    ],
  },
  {
    name: 'org hostname 3..32',
    method: 'PATCH',
    path: ORG,
    field: 'hostname',
    ok: ['abc', s(32)],
    bad: [
      ['ab', /at least 3/],
      [s(33), /at most 32/],
    ],
  },
  {
    name: 'org logo URI ≤2048 or null',
    method: 'PATCH',
    path: ORG,
    field: 'logo',
    ok: [uri(2048), null],
    bad: [
      [uri(2049), /at most 2048/],
      ['logo.png', /URI/],
    ],
  },
  {
    name: 'org defaultRole',
    method: 'PATCH',
    path: ORG,
    field: 'defaultRole',
    ok: ['edit', null],
    bad: [['owner', /one of admin/]],
  },
  {
    name: 'org defaultContent',
    method: 'PATCH',
    path: ORG,
    field: 'defaultContent',
    ok: [{ type: 'site', site: 'site-1' }, null],
    bad: [
      [{ type: 'space', site: 'x' }, /one of site/],
      [{ type: 'site' }, /site: is required/],
      [{ type: 'site', site: 'site-9' }, /\.site: site "site-9" not found in organization "org-demo"/],
    ],
    // The first site of a fresh sandbox is site-1.
    setup: async (call) => expect((await call('POST', `${ORG}/sites`, { title: 'Help' })).body.id).toBe('site-1'),
  },
  {
    name: 'org emailDomains',
    method: 'PATCH',
    path: ORG,
    field: 'emailDomains',
    ok: [[], ['a.test']],
    bad: [
      ['a.test', /must be an array/],
      [[1], /\[0\]: must be a string/],
    ],
  },
  { name: 'org sso', method: 'PATCH', path: ORG, field: 'sso', ok: [true, false], bad: [['yes', /must be a boolean/]] },
  { name: 'org ai', method: 'PATCH', path: ORG, field: 'ai', ok: [true], bad: [[1, /must be a boolean/]] },
  {
    name: 'org inviteLinks',
    method: 'PATCH',
    path: ORG,
    field: 'inviteLinks',
    ok: [false],
    bad: [[null, /must be a boolean/]],
  },
  {
    name: 'member role',
    method: 'PATCH',
    path: `${ORG}/members/u-bob`,
    field: 'role',
    ok: ['review', null],
    bad: [['owner', /one of/]],
  },
  {
    name: 'team title 1..64 (create)',
    method: 'PUT',
    path: `${ORG}/teams`,
    field: 'title',
    ok: ['a', s(64)],
    bad: [
      ['', /at least 1/],
      [s(65), /at most 64/],
    ],
  },
  {
    name: 'team title 1..64 (rename)',
    method: 'PATCH',
    path: `${ORG}/teams/team-support`,
    field: 'title',
    ok: ['a', s(64)],
    bad: [
      ['', /at least 1/],
      [s(65), /at most 64/],
    ],
  },
  {
    name: 'team member role',
    method: 'PUT',
    path: `${ORG}/teams/team-support/members/u-ivan`,
    field: 'role',
    ok: ['owner', 'member'],
    bad: [['admin', /one of owner, member/]],
  },
  {
    name: 'translation title 1..100',
    method: 'POST',
    path: `${ORG}/translations`,
    field: 'title',
    ok: ['a', s(100)],
    bad: [
      ['', /at least 1/],
      [s(101), /at most 100/],
    ],
  },
  {
    name: 'collection title ≤50 (create)',
    method: 'POST',
    path: `${ORG}/collections`,
    field: 'title',
    ok: ['', s(50)],
    bad: [[s(51), /at most 50/]],
  },
  {
    name: 'collection title ≤50 (patch)',
    method: 'PATCH',
    path: '/collections/col-internal',
    field: 'title',
    ok: [s(50)],
    bad: [[s(51), /at most 50/]],
  },
  {
    name: 'collection description ≤100',
    method: 'PATCH',
    path: '/collections/col-internal',
    field: 'description',
    ok: ['', s(100)],
    bad: [[s(101), /at most 100/]],
  },
  {
    name: 'collection defaultLevel',
    method: 'PATCH',
    path: '/collections/col-internal',
    field: 'defaultLevel',
    ok: ['admin', null, 'inherit'],
    bad: [['guest', /one of/]],
  },
  {
    name: 'space title ≤50 (create)',
    method: 'POST',
    path: `${ORG}/spaces`,
    field: 'title',
    ok: [s(50)],
    bad: [[s(51), /at most 50/]],
  },
  {
    name: 'space emoji ≤50 code points (create)',
    method: 'POST',
    path: `${ORG}/spaces`,
    field: 'emoji',
    ok: [s(50, '🚀')],
    bad: [[s(51, '🚀'), /at most 50/]],
  },
  {
    name: 'space editMode (create)',
    method: 'POST',
    path: `${ORG}/spaces`,
    field: 'editMode',
    ok: ['live', 'locked'],
    bad: [['frozen', /one of live, locked/]],
  },
  {
    name: 'space title ≤50 (patch)',
    method: 'PATCH',
    path: '/spaces/sp-runbooks',
    field: 'title',
    ok: [s(50)],
    bad: [[s(51), /at most 50/]],
  },
  {
    name: 'space emoji ≤50 (patch)',
    method: 'PATCH',
    path: '/spaces/sp-runbooks',
    field: 'emoji',
    ok: [s(50)],
    bad: [[s(51), /at most 50/]],
  },
  {
    name: 'space defaultLevel (patch)',
    method: 'PATCH',
    path: '/spaces/sp-runbooks',
    field: 'defaultLevel',
    ok: ['read', null],
    bad: [['guest', /one of/]],
  },
  {
    name: 'invite e-mail',
    method: 'POST',
    path: `${ORG}/invites`,
    field: 'emails',
    ok: [['ok@x.test']],
    bad: [
      [['nope'], /e-mail/],
      ['a@b.test', /must be an array/],
    ],
  },
];

describe('validation boundaries', () => {
  it.each(CASES)('$name', async (c) => {
    const { call } = await sandbox();
    await c.setup?.(call);
    for (const value of c.ok) {
      const res = await call(c.method, c.path, { ...c.base, [c.field]: value });
      expect(
        res.status,
        `${c.field}=${JSON.stringify(value).slice(0, 40)} should pass: ${JSON.stringify(res.body)}`,
      ).toBeLessThan(300);
    }
    for (const [value, rule] of c.bad) {
      const res = await call(c.method, c.path, { ...c.base, [c.field]: value });
      expect(res.status, `${c.field}=${JSON.stringify(value).slice(0, 40)} should fail`).toBe(400);
      expect(res.body.error.code).toBe(400);
      expect(res.body.error.message).toContain(`body.${c.field}`);
      expect(res.body.error.message).toMatch(rule);
    }
  });

  it('required fields are enforced', async () => {
    const { call } = await sandbox();
    expect((await call('PUT', `${ORG}/teams`, { members: [] })).body.error.message).toBe('body.title: is required');
    expect((await call('POST', `${ORG}/translations`, {})).body.error.message).toBe('body.title: is required');
    expect((await call('POST', `${ORG}/invites`, { role: 'read' })).body.error.message).toBe(
      'body.emails: is required',
    );
    expect(
      (await call('PUT', `${ORG}/teams/team-support/members`, { memberships: { 'u-ivan': {} } })).body.error.message,
    ).toBe('body.memberships.u-ivan.role: is required');
  });
});
