/**
 * Checks on a file's raw bytes before YAML sees them: size cap, NUL bytes, invalid UTF-8. Each problem is
 * reported at the offending byte so a stray binary file in the manifests directory is easy to find.
 */
import { isUtf8 } from 'node:buffer';
import type { SourcePos } from '../model/errors.js';

/** Manifests are small; anything larger is almost certainly not a manifest (or an attack). */
export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

export type DecodeResult = { text: string } | { error: { line: number; column: number; message: string } };

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}

export function tooLargeMessage(size: number, max: number): string {
  return `file is too large (${size} bytes; the limit is ${formatBytes(max)}): split it into several files (one kind's documents, e.g. an organization's Members, may be spread over many)`;
}

/** Byte offset of the first invalid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  // Node's check (native) answers for valid files; the loop below, cold JavaScript over every byte, was ~5 % of
  // a cold plan of 1,000 members. It only runs to find where a file is invalid.
  if (isUtf8(bytes)) return -1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    if (i + need >= bytes.length) return i; // truncated sequence at the end of the file
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong encodings, UTF-16 surrogates and code points above U+10FFFF are invalid too.
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return i;
    i += need + 1;
  }
  return -1;
}

/** 1-based line/column of a byte offset (columns in UTF-16 units, like yaml's LineCounter). */
function bytePos(bytes: Uint8Array, offset: number): { line: number; column: number } {
  const before = new TextDecoder('utf-8').decode(bytes.subarray(0, offset));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/** Decode a manifest file's bytes, or say precisely why it is not a text file we accept. */
export function decodeManifestBytes(bytes: Uint8Array, maxBytes = DEFAULT_MAX_FILE_BYTES): DecodeResult {
  if (bytes.length > maxBytes)
    return { error: { line: 1, column: 1, message: tooLargeMessage(bytes.length, maxBytes) } };
  const nul = bytes.indexOf(0);
  const bad = firstInvalidUtf8(bytes);
  if (nul >= 0 && (bad < 0 || nul < bad)) {
    return { error: { ...bytePos(bytes, nul), message: 'file contains a NUL byte (binary file?)' } };
  }
  if (bad >= 0) {
    const hex = bytes[bad]!.toString(16).padStart(2, '0');
    return { error: { ...bytePos(bytes, bad), message: `file is not valid UTF-8 (byte 0x${hex}; binary file?)` } };
  }
  // TextDecoder drops a leading BOM, which YAML would otherwise see as content.
  return { text: new TextDecoder('utf-8').decode(bytes) };
}

/** The same checks for text that was already decoded (e.g. handed to parseYamlFile as a string). */
export function checkDecodedText(
  text: string,
  maxBytes = DEFAULT_MAX_FILE_BYTES,
): (Omit<SourcePos, 'file'> & { message: string }) | undefined {
  const size = Buffer.byteLength(text, 'utf8');
  if (size > maxBytes) return { line: 1, column: 1, message: tooLargeMessage(size, maxBytes) };
  const nul = text.indexOf('\0');
  if (nul >= 0) {
    const lines = text.slice(0, nul).split('\n');
    return {
      line: lines.length,
      column: lines[lines.length - 1]!.length + 1,
      message: 'file contains a NUL byte (binary file?)',
    };
  }
  return undefined;
}
