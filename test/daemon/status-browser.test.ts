/**
 * The status page in a real browser: headless Chromium (the system's, /usr/bin/chromium or DOCOPS_CHROMIUM)
 * driven by playwright-core, with JavaScript off, opens the page of a running daemon against the sandbox and
 * checks what a person sees after an apply, after a change made behind docops's back (who made it), and after an
 * invalid manifest. Screenshots go to DOCOPS_TEST_ARTIFACTS when set, else to a temporary directory (the suite
 * leaves nothing in the working tree). A missing browser fails the test, naming how
 * to install it; it is never skipped.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAROL, membersYaml, teamYaml } from '../audit/fixtures.js';
import { startTestDaemon, type TestDaemon } from './helpers.js';

const BROWSER = process.env.DOCOPS_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = process.env.DOCOPS_TEST_ARTIFACTS ?? mkdtempSync(join(tmpdir(), 'docops-status-browser-'));
/** `DOCOPS_UPDATE_SCREENSHOT=1` also writes the README's screenshot (docs/images/status-page.png). */
const README_SHOT =
  process.env.DOCOPS_UPDATE_SCREENSHOT === '1' ? join(process.cwd(), 'docs/images/status-page.png') : undefined;

let browser: Browser;
let d: TestDaemon;

beforeAll(async () => {
  if (!existsSync(BROWSER)) {
    throw new Error(
      `no Chromium at ${BROWSER}: install it (apt-get install -y chromium; .ci/run does) or set DOCOPS_CHROMIUM to its path`,
    );
  }
  browser = await chromium.launch({
    executablePath: BROWSER,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  d = await startTestDaemon({
    files: {
      'members.yaml': membersYaml({ frank: 'comment' }),
      'team.yaml': teamYaml('Support', ['frank@acme.test', 'ivan@acme.test']),
      'odd.yaml': teamYaml('<script>alert(1)</script>', ['bob@acme.test']),
    },
    config: { schedule: '*/10 * * * *' },
    sandbox: { actorTokens: [CAROL] },
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

async function open(): Promise<{ page: Page; text: string }> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dlg) => void dialogs.push(dlg.message()));
  const res = await page.goto(d.daemon.url + '/');
  expect(res?.status()).toBe(200);
  expect(dialogs).toEqual([]);
  return { page, text: await page.locator('body').innerText() };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
  expect(existsSync(join(ARTIFACTS, name))).toBe(true);
}

describe('status page in a browser', () => {
  it('after an apply: mode, role, revision, the run and the applied change', async () => {
    const { page, text } = await open();
    expect(await page.title()).toMatch(/^docops: /);
    expect(text).toContain('apply (writes changes)');
    expect(await page.locator('[data-field="role"]').innerText()).toBe('single');
    expect(await page.locator('[data-field="revision"]').innerText()).toMatch(/^digest sha256:[0-9a-f]{16}$/);
    expect(text).toContain('The last load found no problem.');
    const runs = page.locator('section[aria-labelledby="runs"] tbody tr');
    expect(await runs.count()).toBe(1);
    expect(await runs.first().innerText()).toMatch(
      /#1\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+start\s+[\d.]+ s\s+Success\s+2\s+2\s+0/,
    );
    const members = page.locator('table.drift', { has: page.locator('caption', { hasText: 'Members (1)' }) });
    // The start-up run has no earlier success to tell a manifest edit from drift by: applied, not "reverted".
    expect(await members.innerText()).toMatch(/frank@acme\.test[\s\S]*role: "read" → "comment"[\s\S]*\tapplied$/);
    // A title that is markup is shown as text, never run.
    expect(text).toContain('<script>alert(1)</script>');
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('meta[http-equiv="refresh"]').getAttribute('content')).toMatch(/^\d+$/);
    await shot(page, 'status-after-apply.png');
  });

  it('after drift made behind docops’s back: what changed, who changed it, and that it was reverted', async () => {
    const res = await fetch(`${d.sandbox.url}/orgs/org-demo/members/u-bob`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${CAROL.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'admin' }),
    });
    expect(res.status).toBe(200);
    const run = d.nextRun();
    d.scheduler.tick();
    expect((await run).applied).toBe(1);
    const { page, text } = await open();
    const members = page.locator('table.drift', { has: page.locator('caption', { hasText: 'Members (1)' }) });
    expect(await members.innerText()).toMatch(
      /bob@acme\.test[\s\S]*role: "admin" → "edit"[\s\S]*carol@acme\.test[\s\S]*member\.updated[\s\S]*applied \(reverted\)/,
    );
    expect(text).toMatch(/#2\s+.*schedule/);
    await shot(page, 'status-after-drift.png');
    if (README_SHOT) await page.screenshot({ path: README_SHOT, fullPage: true });
  });

  it('after an invalid manifest: the problem at file:line, and the run that refused to go on', async () => {
    const invalid = d.nextRun((r) => r.result === 'invalid_manifests');
    d.write(
      'broken.yaml',
      'apiVersion: docops/v1\nkind: Team\nmetadata: { organization: org-demo }\nspec: { title: 7 }\n',
    );
    await invalid;
    const { page, text } = await open();
    expect(await page.title()).toBe('docops: manifests invalid');
    expect(text).toMatch(/Invalid\s+The last load failed with 1 problem\(s\)/);
    const errors = page.locator('table', { has: page.locator('caption', { hasText: 'Load errors' }) });
    expect(await errors.innerText()).toMatch(/broken\.yaml:4:\d+\s+spec\.title: must be string/);
    expect(await page.locator('section[aria-labelledby="runs"] tbody tr').first().innerText()).toMatch(
      /#3[\s\S]*Invalid manifests[\s\S]*1 problem\(s\)/,
    );
    await shot(page, 'status-after-invalid-manifest.png');
  });

  it('after a mistyped manifests directory: the sentence, not a made-up position, wrapped at word boundaries', async () => {
    // A path longer than a line: the sentence wraps between its words, and only the path breaks inside.
    const long = `manifests-of-the-documentation-organization-${'x'.repeat(200)}`;
    const t = await startTestDaemon({ files: {}, config: (dir) => ({ manifestsDir: join(dir, long) }) });
    try {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1024, height: 900 } });
      const page = await context.newPage();
      expect((await page.goto(t.daemon.url + '/'))?.status()).toBe(200);
      const text = await page.locator('body').innerText();
      const sentence = `manifests directory ${join(t.dir, long)} does not exist`;
      expect(text).toContain(`The manifests could not be read: ${sentence}.`);
      expect(text).not.toContain('.:0:0');
      expect(text).not.toMatch(/see the log/);
      expect(await page.locator('section[aria-labelledby="runs"] tbody tr').first().innerText()).toContain(sentence);
      // Nothing wider than the window.
      expect(await page.evaluate('document.scrollingElement.scrollWidth <= window.innerWidth')).toBe(true);
      for (const selector of ['[data-field="load-error"]', '[data-field="ready"]', '[data-field="manifests"]']) {
        const { text: shown, breaks } = await lineBreaks(page, selector);
        expect(breaks.length, `${selector} wraps`).toBeGreaterThan(0);
        // Every break is at a space, or inside the path (the one word longer than a line).
        const pathStart = shown.indexOf('/');
        const pathEnd = shown.indexOf(' ', pathStart) < 0 ? shown.length : shown.indexOf(' ', pathStart);
        for (const at of breaks)
          expect(
            shown[at - 1] === ' ' || shown[at] === ' ' || (at > pathStart && at < pathEnd),
            `${selector} breaks inside a word at ${JSON.stringify(shown.slice(Math.max(0, at - 12), at))}|${JSON.stringify(shown.slice(at, at + 12))}`,
          ).toBe(true);
      }
      await shot(page, 'status-manifests-directory-missing.png');
      await context.close();
    } finally {
      await t.stop();
    }
  });
});

/** An element's text and the offsets where a new line starts, from each character's box (no page script runs). */
async function lineBreaks(page: Page, selector: string): Promise<{ text: string; breaks: number[] }> {
  // Written as text: the test code has no DOM types; playwright runs it in the page's utility world.
  const measure = new Function(
    'el',
    `const chars = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (let i = 0; i < n.data.length; i++) {
        const range = document.createRange();
        range.setStart(n, i);
        range.setEnd(n, i + 1);
        const box = range.getClientRects()[0];
        chars.push({ c: n.data[i], top: box ? Math.round(box.top) : null });
      }
    }
    const breaks = [];
    let top = null;
    chars.forEach((x, i) => {
      if (x.top === null) return;
      if (top !== null && x.top > top) breaks.push(i);
      top = x.top;
    });
    return { text: chars.map((x) => x.c).join(''), breaks };`,
  ) as (el: unknown) => { text: string; breaks: number[] };
  return page.locator(selector).evaluate(measure);
}
