/**
 * originBoundFetch's rules, over a scripted fetch: same-origin redirects followed as fetch follows them (a 303,
 * or a 301/302 after a POST, becomes a body-less GET; a 307/308 re-sends as it was), anything leaving the origin
 * refused before it is sent, no Location or too long a chain a failed request with the status.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/model/errors.js';
import { MAX_REDIRECTS, originBoundFetch } from '../../src/github/origin-fetch.js';

const ORIGIN = 'https://ghe.test';

interface Sent {
  url: string;
  method: string;
  body: unknown;
  contentType: string | null;
  redirect: RequestInit['redirect'];
}

/** A fetch answering each request with the next of `answers` (status, Location). */
function scripted(answers: [number, string?][]) {
  const sent: Sent[] = [];
  const send: typeof fetch = async (input, init = {}) => {
    sent.push({
      url: String(input),
      method: init.method ?? 'GET',
      body: init.body,
      contentType: new Headers(init.headers).get('content-type'),
      redirect: init.redirect,
    });
    const [status, location] = answers.shift() ?? [200];
    return new Response(status === 200 ? '{}' : null, { status, headers: location === undefined ? {} : { location } });
  };
  return { sent, fetch: originBoundFetch(ORIGIN, send) };
}

const post = {
  method: 'POST',
  body: '{"body":"plan"}',
  headers: { 'content-type': 'application/json', authorization: 'token T' },
};

describe('originBoundFetch', () => {
  it('307 and 308 within the origin re-send method and body; nothing is left to fetch to follow', async () => {
    const s = scripted([
      [307, '/api/v3/repositories/1/issues/7/comments'],
      [308, `${ORIGIN}/api/v3/x`],
    ]);
    const res = await s.fetch(`${ORIGIN}/api/v3/repos/a/old/issues/7/comments`, post);
    expect(res.status).toBe(200);
    expect(s.sent.map((x) => [x.url, x.method, x.body, x.redirect])).toEqual([
      [`${ORIGIN}/api/v3/repos/a/old/issues/7/comments`, 'POST', post.body, 'manual'],
      [`${ORIGIN}/api/v3/repositories/1/issues/7/comments`, 'POST', post.body, 'manual'],
      [`${ORIGIN}/api/v3/x`, 'POST', post.body, 'manual'],
    ]);
  });

  it('303, and 301/302 after a POST, continue as a GET without the body or its content type', async () => {
    for (const status of [301, 302, 303]) {
      const s = scripted([[status, '/api/v3/next']]);
      await s.fetch(`${ORIGIN}/api/v3/first`, post);
      expect(s.sent[1]).toMatchObject({ method: 'GET', body: undefined, contentType: null });
    }
    const patch = scripted([[301, '/api/v3/next']]);
    await patch.fetch(`${ORIGIN}/api/v3/first`, { ...post, method: 'PATCH' });
    expect(patch.sent[1]).toMatchObject({ method: 'PATCH', body: post.body });
  });

  it('a request or a redirect for another origin (scheme, host or port) is never sent', async () => {
    for (const other of ['http://ghe.test', 'https://ghe.test:8443', 'https://evil.test']) {
      const direct = scripted([]);
      await expect(direct.fetch(`${other}/api/v3/x`, post)).rejects.toThrow(ApiError);
      expect(direct.sent).toEqual([]);
      const redirected = scripted([[302, `${other}/api/v3/x`]]);
      const err = await redirected.fetch(`${ORIGIN}/api/v3/x`).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(302);
      expect(redirected.sent).toHaveLength(1);
    }
  });

  it(`a redirect without a Location, or more than ${MAX_REDIRECTS} in a row, fails with its status`, async () => {
    const bare = scripted([[307]]);
    await expect(bare.fetch(`${ORIGIN}/a`)).rejects.toThrow(
      'GET /a failed with 307: answered a redirect without a Location',
    );
    const loop = scripted(Array.from({ length: MAX_REDIRECTS + 1 }, () => [302, '/a'] as [number, string]));
    await expect(loop.fetch(`${ORIGIN}/a`)).rejects.toThrow(
      `failed with 302: redirected more than ${MAX_REDIRECTS} times`,
    );
    expect(loop.sent).toHaveLength(MAX_REDIRECTS + 1);
  });
});
