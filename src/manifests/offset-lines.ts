/**
 * Offset → 1-based line/column, computed on first use (reading a large file should not pay for positions
 * nobody asks for). Same answers as yaml's LineCounter.linePos for text where `\n` is the only line break
 * (a CRLF line starts after its `\n`; columns count UTF-16 code units).
 */
export class OffsetLines {
  private starts: Uint32Array | undefined;

  constructor(private readonly text: string) {}

  linePos(offset: number): { line: number; col: number } {
    const starts = (this.starts ??= lineStarts(this.text));
    // Last line start <= offset (binary search); LineCounter answers the same way.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - (starts[lo] as number) + 1 };
  }
}

function lineStarts(text: string): Uint32Array {
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  const starts = new Uint32Array(count);
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts[n++] = i + 1;
  return starts;
}
