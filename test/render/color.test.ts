import { describe, expect, it } from 'vitest';
import { createColors, shouldColor } from '../../src/render/ansi.js';
import { renderPlan } from '../../src/render/index.js';
import { samplePlan } from './fixture.js';

describe('colour decision', () => {
  it('is on for a TTY, off for a pipe', () => {
    expect(shouldColor({ isTTY: true }, {})).toBe(true);
    expect(shouldColor({ isTTY: false }, {})).toBe(false);
    expect(shouldColor({}, {})).toBe(false);
  });

  it('NO_COLOR turns it off even on a TTY; an empty NO_COLOR does not', () => {
    expect(shouldColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
  });

  it('FORCE_COLOR forces it on, unless it is 0/false', () => {
    expect(shouldColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldColor({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(shouldColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(true);
    expect(shouldColor({ isTTY: false }, { FORCE_COLOR: 'false' })).toBe(false);
  });

  it('colour only affects the text format', () => {
    const plan = samplePlan();
    expect(renderPlan(plan, 'text', { color: true })).toContain('\u001b[');
    expect(renderPlan(plan, 'markdown', { color: true })).not.toContain('\u001b[');
    expect(renderPlan(plan, 'json', { color: true })).not.toContain('\u001b[');
    expect(createColors(false).red('x')).toBe('x');
  });
});
