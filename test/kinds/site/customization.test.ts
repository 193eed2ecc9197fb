/**
 * Site customization without a server: the read-modify-write merge apply performs (src/engine/merge.ts), what the
 * diff compares (only written members, at any depth), what export writes (only members differing from a new
 * site's), the manifest schema and the brand file, and a saved plan carrying a merge request.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/model/errors.js';
import { mergePatch } from '../../../src/engine/merge.js';
import { emptyPlan, type Plan } from '../../../src/model/plan.js';
import { KINDS } from '../../../src/kinds/index.js';
import {
  customizationChange,
  customizationRequest,
  exportedCustomization,
} from '../../../src/kinds/site/customization.js';
import { loadManifests } from '../../../src/manifests/index.js';
import { renderJson } from '../../../src/render/json.js';
import { parsePlanJson } from '../../../src/plan-file/read-plan.js';
import { defaultCustomization } from '../../../packages/sandbox/src/customization.js';
import { tempDir } from '../../helpers/pipeline.js';

describe('mergePatch (read-modify-write)', () => {
  const read = {
    title: 'Old',
    styling: {
      primaryColor: { light: '#111', dark: '#222' },
      font: { id: 'f', custom: true, fontFamily: 'X', fontFaces: [] },
    },
    socialAccounts: [{ platform: 'github' }],
    updatedAt: 'T',
  };

  it('merges objects member by member; lists, scalars, null and `whole` objects replace; `omit` drops; inputs unchanged', () => {
    const before = structuredClone(read);
    const patch = {
      styling: { primaryColor: { light: '#333' }, font: 'Inter', headingFont: null },
      socialAccounts: [],
      favicon: { emoji: 'x' },
    };
    expect(mergePatch(read, patch, { omit: ['updatedAt'], whole: ['/favicon'] })).toEqual({
      title: 'Old',
      styling: { primaryColor: { light: '#333', dark: '#222' }, font: 'Inter', headingFont: null },
      socialAccounts: [],
      favicon: { emoji: 'x' },
    });
    expect(read).toEqual(before);
    // An object at a `whole` pointer replaces even an object read there.
    expect(
      mergePatch(
        { favicon: { icon: { light: 'a', dark: 'b' } } },
        { favicon: { emoji: 'x' } },
        { whole: ['/favicon'] },
      ),
    ).toEqual({ favicon: { emoji: 'x' } });
    expect(mergePatch({ favicon: { icon: { light: 'a', dark: 'b' } } }, { favicon: { emoji: 'x' } })).toEqual({
      favicon: { icon: { light: 'a', dark: 'b' }, emoji: 'x' },
    });
  });
});

describe('members a newer API added inside an object replaced whole', () => {
  const live = { ...defaultCustomization(), favicon: { emoji: '📘', shape: 'rounded' }, updatedAt: 'T' };

  it('are not compared: the written favicon is what docops knows of it', () => {
    expect(customizationChange({ favicon: { emoji: '📘' } }, live)).toBeUndefined();
    expect(customizationChange({ favicon: { emoji: '📙' } }, live)).toEqual({
      before: { favicon: { emoji: '📘' } },
      after: { favicon: { emoji: '📙' } },
    });
  });

  it('survive the read-modify-write: the merge keeps what docops does not know, and drops the other shape', () => {
    const request = customizationRequest('/orgs/o/sites/s/customization', { favicon: { emoji: '📙' } });
    const read = { favicon: { icon: { light: 'https://a/x.png', dark: 'https://a/y.png' }, shape: 'rounded' } };
    expect(mergePatch(read, request.body, request.merge)).toEqual({ favicon: { emoji: '📙', shape: 'rounded' } });
  });
});

describe('customizationChange', () => {
  const live = { ...defaultCustomization(), title: 'Acme', updatedAt: 'T' };

  it('compares only the written members, at any depth; siblings not written are not compared', () => {
    expect(
      customizationChange({ styling: { primaryColor: { light: '#346DDB' } }, title: 'Acme' }, live),
    ).toBeUndefined();
    expect(
      customizationChange(
        { styling: { primaryColor: { light: '#FF6600' }, corners: 'rounded' }, themes: { toggeable: false } },
        live,
      ),
    ).toEqual({
      before: { styling: { primaryColor: { light: '#346DDB' } }, themes: { toggeable: true } },
      after: { styling: { primaryColor: { light: '#FF6600' } }, themes: { toggeable: false } },
    });
    // A member absent live has no before; an empty object written manages nothing.
    expect(
      customizationChange(
        { announcement: { enabled: true, message: 'Hi there', style: 'info' }, privacyPolicy: {} },
        live,
      ),
    ).toEqual({
      before: {},
      after: { announcement: { enabled: true, message: 'Hi there', style: 'info' } },
    });
  });

  it('objects of one of several shapes compare and replace whole; a new site compares against nothing', () => {
    const withIcon = { ...live, favicon: { icon: { light: 'https://a/x.png', dark: 'https://a/y.png' } } };
    expect(customizationChange({ favicon: { icon: { light: 'https://a/x.png' } } }, withIcon)?.after).toEqual({
      favicon: { icon: { light: 'https://a/x.png' } },
    });
    const change = customizationChange(
      { favicon: { emoji: '🚀' }, styling: { font: 'Roboto', corners: 'straight' } },
      undefined,
    )!;
    expect(customizationRequest('/orgs/o/sites/s/customization', change.after)).toEqual({
      method: 'PUT',
      path: '/orgs/o/sites/s/customization',
      body: { favicon: { emoji: '🚀' }, styling: { font: 'Roboto', corners: 'straight' } },
      merge: {
        omit: ['updatedAt'],
        whole: ['/favicon', '/styling/font'],
        // What docops knows of them: any other member read there is a newer API's, and kept.
        known: [
          '/favicon/icon',
          '/favicon/emoji',
          '/styling/font/id',
          '/styling/font/custom',
          '/styling/font/fontFamily',
          '/styling/font/fontFaces',
        ],
      },
    });
  });
});

describe('exportedCustomization', () => {
  it("a new site's customization (one source for the kind and the sandbox): export writes nothing for it", () => {
    expect(exportedCustomization({ ...defaultCustomization(), updatedAt: 'T' })).toBeUndefined();
  });

  it('writes only the members that differ, at any depth; what it writes compares equal to the live object', () => {
    const live: Record<string, unknown> = {
      ...defaultCustomization(),
      updatedAt: 'T',
      title: 'Acme',
      announcement: { enabled: false, message: 'Hello', style: 'info' },
    };
    (live['styling'] as Record<string, unknown>)['primaryColor'] = { light: '#346DDB', dark: '#000000' };
    (live['styling'] as Record<string, unknown>)['font'] = {
      id: 'f',
      custom: true,
      fontFamily: 'Brand',
      fontFaces: [{ weight: 400, sources: [{ url: 'https://f/x.woff2' }] }],
    };
    const written = exportedCustomization(live)!;
    expect(written).toEqual({
      title: 'Acme',
      announcement: { enabled: false, message: 'Hello', style: 'info' },
      styling: {
        primaryColor: { dark: '#000000' },
        font: {
          id: 'f',
          custom: true,
          fontFamily: 'Brand',
          fontFaces: [{ weight: 400, sources: [{ url: 'https://f/x.woff2' }] }],
        },
      },
    });
    expect(customizationChange(written, live)).toBeUndefined();
  });
});

describe('customization in manifests', () => {
  const load = async (files: Record<string, string>) => {
    const dir = tempDir('site-customization');
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    try {
      return { dir, result: await loadManifests(dir, KINDS, { env: {} }) };
    } catch (e) {
      if (e instanceof ValidationError)
        return {
          dir,
          issues: e.issues.map((i) => `${i.file.slice(dir.length + 1)}:${i.line}:${i.column}: ${i.message}`),
        };
      throw e;
    }
  };
  const site = (customization: string): string =>
    `apiVersion: docops/v1\nkind: Site\nmetadata: { organization: org-demo }\nspec:\n  title: Docs\n  customization: ${customization}\n`;

  it('an inline block is checked against the official schema (every member optional), each problem at its position', async () => {
    const { issues } = await load({
      'site.yaml': site('{ styling: { primaryColor: { light: orange } }, favicon: { emoji: x, icon: {} }, colour: 1 }'),
    });
    expect(issues).toEqual([
      'site.yaml:6:54: spec.customization.styling.primaryColor.light: must match the pattern ^#(?:[0-9a-fA-F]{3}){1,2}$ (got "orange")',
      'site.yaml:6:87: spec.customization.favicon: unknown field "icon"',
      'site.yaml:6:99: spec.customization: unknown field "colour"',
    ]);
  });

  it('a brand file is read as the block; its problems are reported in that file', async () => {
    const ok = await load({
      'site.yaml': site('{ file: brand/acme.yaml }'),
      'brand/acme.yaml': 'styling:\n  corners: straight\n',
    });
    expect(ok.result?.desired.get('Site')?.[0]?.spec).toMatchObject({
      customization: { styling: { corners: 'straight' } },
    });
    // The brand file is data, not a manifest.
    expect(ok.result?.documents.map((d) => d.kind)).toEqual(['Site']);

    const bad = await load({
      'site.yaml': site('{ file: brand.yaml }'),
      'brand.yaml': 'styling:\n  corners: pointy\n',
    });
    expect(bad.issues).toEqual([expect.stringMatching(/^brand\.yaml:2:12: customization\.styling\.corners/)]);
    // Data, not a manifest: `${BRAND}` is text (docs/kinds.md), neither read nor refused with an --allow-env hint.
    const vars = await load({ 'site.yaml': site('{ file: brand.yaml }'), 'brand.yaml': 'title: ${BRAND}\n' });
    expect(vars.issues).toBeUndefined();
    expect(vars.result?.desired.get('Site')?.[0]?.spec).toMatchObject({ customization: { title: '${BRAND}' } });
  });
});

describe('a saved plan with a read-modify-write request', () => {
  it('renders to JSON and reads back unchanged', () => {
    const plan: Plan = emptyPlan();
    plan.steps.push({
      id: 'Site/o/Docs#customization',
      action: 'update',
      phase: 'update',
      kind: 'Site',
      org: 'o',
      key: 'Docs',
      wave: 30,
      before: {},
      after: { favicon: { emoji: 'x' } },
      dependsOn: [],
      requests: [customizationRequest('/orgs/o/sites/s/customization', { favicon: { emoji: 'x' } })],
    });
    expect(parsePlanJson(renderJson(plan))).toEqual(plan);
    const broken = JSON.parse(renderJson(plan));
    broken.steps[0].requests[0].merge.whole = [1];
    expect(() => parsePlanJson(JSON.stringify(broken))).toThrow(/merge\.whole\[0\]/);
  });
});
