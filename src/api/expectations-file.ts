/**
 * Expectations kept between processes (src/api/expectations.ts): `docops apply` then `docops plan` a moment later,
 * or a daemon restarted, still know what docops wrote that the lists may not show yet. One file beside the
 * journal directory (`<journalDir>.expectations.json`: the journal holds only journals), bound to the API it was
 * written against; written whole to a temporary file and renamed over the old one. A file that is missing, unreadable or for another API is taken as empty: it only
 * costs the protection it would have given.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ApiClient } from '../model/api-client.js';
import { Expectations, expecting } from './expectations.js';

/** The file kept beside a journal directory. */
export const expectationsFile = (journalDir: string): string =>
  `${journalDir.replace(/[\\/]+$/, '')}.expectations.json`;

export interface Expecting {
  client: ApiClient;
  expectations: Expectations;
  /** Keep what is expected now in the file (nothing when there is no file). */
  save(): Promise<void>;
}

/** The client with its writes remembered (floor `lagMs`), loaded from and saved beside the journal `dir` when given. */
export async function expectingClient(client: ApiClient, lagMs: number, dir?: string): Promise<Expecting> {
  const expectations = new Expectations(lagMs, Date.now, client.baseUrl);
  const file = dir === undefined ? undefined : expectationsFile(dir);
  let loaded = 0;
  if (file !== undefined) {
    try {
      const kept: unknown = JSON.parse(await readFile(file, 'utf8'));
      if (typeof kept === 'object' && kept !== null && (kept as { api?: unknown }).api === client.baseUrl)
        expectations.load(kept);
      loaded = expectations.size;
    } catch {
      // Missing or unreadable: nothing was expected.
    }
  }
  return {
    client: expecting(client, expectations),
    expectations,
    async save() {
      if (file === undefined || (expectations.size === 0 && loaded === 0)) return;
      await mkdir(dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify({ api: client.baseUrl, ...expectations.toJSON() }) + '\n', { mode: 0o600 });
      await rename(temp, file);
    },
  };
}
