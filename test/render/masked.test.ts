/**
 * `RequestSpec.masked`: a printed JSON plan shows a masked body field as its stand-in text (a SAML certificate as
 * its fingerprint) and still parses; the saved-plan file keeps the body as sent, so applying it sends exactly that.
 */
import { describe, expect, it } from 'vitest';
import { emptyPlan, type Plan } from '../../src/model/plan.js';
import { createSavedPlan, parseSavedPlan, renderSavedPlan } from '../../src/plan-file/saved-plan.js';
import { renderJson } from '../../src/render/json.js';
import { parsePlanJson } from '../../src/plan-file/read-plan.js';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBijCCATGgAwIBAgIUbKqxzoHTLeJwL\n-----END CERTIFICATE-----';

function plan(): Plan {
  return {
    ...emptyPlan(),
    steps: [
      {
        id: 'SamlProvider/o1/Okta#create',
        action: 'create',
        phase: 'create',
        kind: 'SamlProvider',
        org: 'o1',
        key: 'Okta',
        wave: 22,
        before: null,
        after: { label: 'Okta', certificate: 'sha256:abc' },
        dependsOn: [],
        requests: [
          {
            method: 'POST',
            path: '/orgs/o1/saml',
            body: { label: 'Okta', certificate: PEM },
            capture: { id: 'id' },
            masked: { certificate: 'sha256:abc', absent: 'x' },
          },
        ],
      },
    ],
  };
}

describe('masked request body fields', () => {
  it('print as their stand-in text, and the printed plan parses back to the same printout', () => {
    const text = renderJson(plan());
    expect(text).not.toContain('MIIB');
    const printed = parsePlanJson(text);
    // A masked field the body does not hold is not added.
    expect(printed.steps[0]!.requests[0]).toEqual({
      method: 'POST',
      path: '/orgs/o1/saml',
      body: { label: 'Okta', certificate: 'sha256:abc' },
      capture: { id: 'id' },
      masked: { certificate: 'sha256:abc', absent: 'x' },
    });
    expect(renderJson(printed)).toBe(text);
  });

  it('stay as sent in the saved-plan file, which parses back to the plan exactly', () => {
    const saved = createSavedPlan({
      plan: plan(),
      live: new Map(),
      manifests: { checksum: 'c', files: {} },
      inputs: { dataFiles: {}, variables: {} },
      cost: { requests: 1, estimatedMs: 1, concurrency: 1, latencyMs: 1 },
      options: { prune: [], invite: false },
    });
    const file = renderSavedPlan(saved);
    expect(file).toContain('MIIBijCCATGgAwIBAgIUbKqxzoHTLeJwL');
    expect(parseSavedPlan(file).plan).toStrictEqual(JSON.parse(JSON.stringify(plan())));
    expect(renderJson(plan(), { unmasked: true })).toContain('MIIB');
  });

  it('a masked value that is not text is refused', () => {
    const bad = JSON.parse(renderJson(plan())) as { steps: { requests: { masked: unknown }[] }[] };
    bad.steps[0]!.requests[0]!.masked = { certificate: 42 };
    expect(() => parsePlanJson(JSON.stringify(bad))).toThrow(
      'plan.steps[0].requests[0].masked.certificate: expected a string',
    );
  });
});
