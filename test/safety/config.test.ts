import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/model/errors.js';
import { DEFAULT_SAFETY, limitsFor, resolveSafetyConfig } from '../../src/safety/config.js';

const schema = JSON.parse(readFileSync(new URL('../../schemas/safety.schema.json', import.meta.url), 'utf8')) as object;

describe('safety config', () => {
  it('defaults to octoDNS/peribolos-like limits', () => {
    expect(resolveSafetyConfig()).toEqual({
      deletes: { fraction: 0.25, minLive: 10, max: 100 },
      updates: { fraction: 0.3, minLive: 10, max: 500 },
      allowPruneAll: false,
      kinds: {},
    });
    expect(resolveSafetyConfig(null)).toEqual(resolveSafetyConfig({}));
  });

  it('merges partial settings and per-kind overrides over the defaults', () => {
    const config = resolveSafetyConfig({
      deletes: { max: 40 },
      kinds: { Team: { deletes: { fraction: 0.5 }, allowPruneAll: true }, Translation: { updates: { minLive: 3 } } },
    });
    expect(config.deletes).toEqual({ fraction: 0.25, minLive: 10, max: 40 });
    expect(limitsFor(config, 'Team')).toEqual({
      deletes: { fraction: 0.5, minLive: 10, max: 40 },
      updates: DEFAULT_SAFETY.updates,
      allowPruneAll: true,
      allowEmpty: true,
    });
    expect(limitsFor(config, 'Translation').updates).toEqual({ fraction: 0.3, minLive: 3, max: 500 });
    expect(limitsFor(config, 'Members')).toEqual({
      deletes: config.deletes,
      updates: config.updates,
      allowPruneAll: false,
      allowEmpty: false,
    });
  });

  it('allowEmpty is per kind, and allowPruneAll (of the kind or global) implies it', () => {
    const config = resolveSafetyConfig({
      kinds: { CollectionAccess: { allowEmpty: true }, TeamMember: { allowPruneAll: true } },
    });
    expect(limitsFor(config, 'CollectionAccess')).toMatchObject({ allowEmpty: true, allowPruneAll: false });
    expect(limitsFor(config, 'TeamMember')).toMatchObject({ allowEmpty: true, allowPruneAll: true });
    expect(limitsFor(config, 'SpaceAccess').allowEmpty).toBe(false);
    expect(limitsFor(resolveSafetyConfig({ allowPruneAll: true }), 'SpaceAccess').allowEmpty).toBe(true);
    expect(() => resolveSafetyConfig({ kinds: { SpaceAccess: { allowEmpty: 'yes' } } })).toThrow(
      /safety.kinds.SpaceAccess.allowEmpty: must be true or false/,
    );
  });

  it.each([
    [{ deletes: { fraction: 1.5 } }, /safety.deletes.fraction: must be between 0 and 1/],
    [{ updates: { max: -1 } }, /safety.updates.max: must be a number ≥ 0/],
    [{ deletes: { minLive: 2.5 } }, /must be a whole number/],
    [{ deletes: { limit: 3 } }, /safety.deletes.limit: unknown setting/],
    [{ allowPruneAll: 'yes' }, /safety.allowPruneAll: must be true or false/],
    [{ kinds: { Team: { deletes: { fraction: '50%' } } } }, /safety.kinds.Team.deletes.fraction/],
    [[], /safety: must be a mapping/],
    [{ allowPrunAll: true }, /safety.allowPrunAll: unknown setting/],
    [{ kinds: { Team: { allowPrunAll: true } } }, /safety.kinds.Team.allowPrunAll: unknown setting/],
  ])('rejects %j', (input, message) => {
    expect(() => resolveSafetyConfig(input)).toThrow(UsageError);
    expect(() => resolveSafetyConfig(input)).toThrow(message);
  });

  it('has a schema that agrees with the resolver', () => {
    const validate = new Ajv({ strict: true }).compile(schema);
    const good = {
      deletes: { fraction: 0.1, minLive: 5, max: 20 },
      updates: { max: 1000 },
      allowPruneAll: false,
      kinds: { SiteSection: { deletes: { fraction: 1 }, allowPruneAll: true } },
    };
    expect(validate(good)).toBe(true);
    expect(() => resolveSafetyConfig(good)).not.toThrow();
    for (const bad of [
      { deletes: { fraction: 1.5 } },
      { updates: { max: -1 } },
      { deletes: { minLive: 2.5 } },
      { deletes: { limit: 3 } },
      { allowPruneAll: 'yes' },
      { force: true },
    ]) {
      expect(validate(bad)).toBe(false);
      expect(() => resolveSafetyConfig(bad)).toThrow(UsageError);
    }
  });
});
