/**
 * A tiny ANSI colour helper (no dependency). Colour is on only when the output stream is a TTY and NO_COLOR is
 * unset; FORCE_COLOR (any value but "0"/"false") forces it on, e.g. for CI logs that render ANSI.
 */

export interface Colors {
  enabled: boolean;
  green(text: string): string;
  yellow(text: string): string;
  red(text: string): string;
  cyan(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

type Env = Readonly<Record<string, string | undefined>>;

export function shouldColor(stream: { isTTY?: boolean }, env: Env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '0' && force.toLowerCase() !== 'false') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true;
}

const wrap =
  (enabled: boolean, open: number, close: number) =>
  (text: string): string =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;

export function createColors(enabled: boolean): Colors {
  return {
    enabled,
    green: wrap(enabled, 32, 39),
    yellow: wrap(enabled, 33, 39),
    red: wrap(enabled, 31, 39),
    cyan: wrap(enabled, 36, 39),
    bold: wrap(enabled, 1, 22),
    dim: wrap(enabled, 2, 22),
  };
}

/** Remove ANSI escapes, e.g. to measure or compare coloured output. */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
