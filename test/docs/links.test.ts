/**
 * The documentation a user reads: the README's first screen says what docops is for and shows the road (try →
 * connect → import → review → run) with the two commands a newcomer needs; every relative link of the README and
 * docs/ names a file the repository has, and every #anchor a heading of that file (as GitHub makes its slugs).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), 'deploy/docker-run.md'];

/** GitHub's heading anchor: lower case, punctuation but hyphens and spaces dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, h] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(h!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('the README', () => {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const firstScreen = text.split('\n').slice(0, 40).join('\n');

  it('says what docops is for and starts with the two commands', () => {
    expect(firstScreen).toMatch(/GitOps for a GitBook organization/);
    expect(firstScreen).toContain('https://api.gitbook.com/v1');
    const block = /```sh\n([\s\S]*?)```/.exec(firstScreen)?.[1] ?? '';
    expect(block.split('\n').filter(Boolean).map((l) => l.split('#')[0]!.trim())).toEqual(['npm ci && npm start', 'npm test']);
  });

  it('shows the road on its first screen, in order', () => {
    const steps = ['Try', 'Connect', 'Import', 'Review', 'Run'].map((s) => firstScreen.indexOf(`**${s}**`));
    expect(steps.every((i) => i > 0)).toBe(true);
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);
  });
});

describe('links in the user documentation', () => {
  it.each(DOCS)('%s: every relative link names a file the repository has, and its anchor a heading', (doc) => {
    const file = join(ROOT, doc);
    const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target!)) continue;
      const [path, anchor] = target!.split('#');
      const linked = path === '' ? file : join(dirname(file), path!);
      if (!existsSync(linked)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor !== undefined && statSync(linked).isFile() && linked.endsWith('.md') && !anchors(linked).has(anchor)) {
        broken.push(`${target}: no heading #${anchor} in ${relative(ROOT, linked)}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
