/**
 * firstInvalidUtf8 (decode.ts) answers valid files with Node's native check and scans only invalid ones: both
 * must agree with a strict UTF-8 decoder, and the offset must be where the valid prefix ends.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { firstInvalidUtf8 } from '../../src/manifests/decode.js';

const strict = new TextDecoder('utf-8', { fatal: true });
const decodes = (bytes: Uint8Array): boolean => {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

// Bytes that are mostly text: ASCII, valid multi-byte characters, and the odd stray byte.
const textish = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 4 }).map((s) => [...Buffer.from(s)]),
      fc.array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 2 }),
    ),
    { maxLength: 20 },
  )
  .map((parts) => Uint8Array.from(parts.flat()));

describe('firstInvalidUtf8', () => {
  test('-1 exactly when a strict decoder accepts the bytes; otherwise the valid prefix ends there', () => {
    fc.assert(
      fc.property(textish, (bytes) => {
        const at = firstInvalidUtf8(bytes);
        expect(at === -1).toBe(decodes(bytes));
        if (at >= 0) expect(decodes(bytes.subarray(0, at))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  test.each([
    ['overlong', [0x41, 0xc0, 0x80], 1],
    ['surrogate', [0xed, 0xa0, 0x80], 0],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['truncated at the end', [0x61, 0xe2, 0x82], 1],
    ['valid', [0xe2, 0x82, 0xac, 0x0a], -1],
  ])('%s', (_name, bytes, at) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(at);
  });
});
