/**
 * Writing files inside a directory docops was given — `init`'s and `export`'s target, `undo -o`, the journal
 * directory, the directory of a `--out` file — without following a symbolic link out of it (docs/reliability.md,
 * "Files are written where they are said to be"). A file docops writes that is a symbolic link is refused,
 * wherever it points (docops would write into the file it names, maybe far away); so is a directory on the way
 * that is a link out of the directory given (or a dangling one). Each refusal is a UsageError naming the link.
 *
 * Two layers: commands that write several files check them all first (refuseLinks), so a refused command
 * writes nothing; and every write opens its file with O_NOFOLLOW after checking its directories (openInside),
 * so a link that appears in between is refused too.
 */
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from './model/errors.js';

/** `w` replaces the file, `wx` creates it (EEXIST when it exists), `a` appends. */
export type WriteFlag = 'w' | 'wx' | 'a';

const FLAGS: Record<WriteFlag, number> = {
  w: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
  wx: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
  a: constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND,
};
/** Not every platform has it (Windows): there the lstat checks alone hold. */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

const linkMessage = (link: string, to?: string): string =>
  `${link} is a symbolic link${to === undefined ? '' : ` to ${to}`}; docops writes no file through a link (remove it, or write into another directory)`;

async function lstatOrNone(p: string): Promise<Stats | undefined> {
  try {
    return await lstat(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
      return undefined;
    throw err;
  }
}

const within = (outer: string, inner: string): boolean => {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** The parts of `dir`'s path below `root` ([] for root itself); an error (a bug of the caller) when it is not there. */
function below(root: string, dir: string): string[] {
  const rel = path.relative(path.resolve(root), path.resolve(dir));
  if (rel === '') return [];
  if (rel.startsWith('..') || path.isAbsolute(rel))
    throw new Error(`${dir} is not inside ${root}: docops writes only inside the directory it is given`);
  return rel.split(path.sep);
}

/** The first directory on the way from `root` to `dir` (root excluded, dir included) that is a link out of root. */
async function directoryLinkOut(root: string, dir: string): Promise<string | undefined> {
  const parts = below(root, dir);
  if (parts.length === 0) return undefined;
  const realRoot = await realpath(root).catch(() => path.resolve(root));
  let at = root;
  for (const part of parts) {
    at = path.join(at, part);
    const st = await lstatOrNone(at);
    if (!st) return undefined; // the rest is created by docops
    if (!st.isSymbolicLink()) continue;
    const to = await realpath(at).catch(() => undefined);
    if (to === undefined || !within(realRoot, to)) return linkMessage(at, to ?? '(nothing)');
  }
  return undefined;
}

/**
 * What is wrong on the way from `root` to the file `target`: a directory that is a symbolic link out of `root`
 * (or a dangling one), or `target` itself being a symbolic link. Undefined when nothing is.
 */
export async function linkOnTheWay(root: string, target: string): Promise<string | undefined> {
  const out = await directoryLinkOut(root, path.dirname(target));
  if (out !== undefined) return out;
  if (!(await lstatOrNone(target))?.isSymbolicLink()) return undefined;
  return linkMessage(target, await realpath(target).catch(() => '(nothing)'));
}

/** Refuse, before anything is written, every link on the way to any of `targets` (one UsageError naming them all). */
export async function refuseLinks(root: string, targets: readonly string[]): Promise<void> {
  const found = new Set<string>();
  for (const t of targets) {
    const problem = await linkOnTheWay(root, t);
    if (problem !== undefined) found.add(problem);
  }
  if (found.size > 0) throw new UsageError([...found].join('\n'));
}

/**
 * Open `target` (below `root`) for writing: its directories checked and created, the file itself opened without
 * following a link (ELOOP: refused, naming it).
 */
export async function openInside(root: string, target: string, flag: WriteFlag, mode = 0o666): Promise<FileHandle> {
  const problem = await directoryLinkOut(root, path.dirname(target));
  if (problem !== undefined) throw new UsageError(problem);
  await mkdir(path.dirname(target), { recursive: true });
  try {
    return await open(target, FLAGS[flag] | NOFOLLOW, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new UsageError(linkMessage(target));
    throw err;
  }
}

/** Write `content` to `target` (below `root`) through openInside. */
export async function writeInside(
  root: string,
  target: string,
  content: string,
  options: { flag?: WriteFlag; mode?: number } = {},
): Promise<void> {
  const handle = await openInside(root, target, options.flag ?? 'w', options.mode);
  try {
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}

/** Write a file a command was given by name (`--out FILE`): inside its own directory, never through a link. */
export async function writeNamedFile(file: string, content: string, flag: WriteFlag = 'w'): Promise<void> {
  await writeInside(path.dirname(path.resolve(file)), path.resolve(file), content, { flag });
}
