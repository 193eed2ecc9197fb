/**
 * The daemon's manifest reader: a file whose bytes equal those of its last clean parse gets that parse again
 * instead of being parsed anew. A save of one file re-parses one file, not the whole directory (YAML parsing is
 * most of a load: ~2/3 on a 10,000-member organization). Keyed by path and compared byte for byte, never by mtime;
 * only parses without issues are kept, and the variables manifests read are fixed for the daemon's life (its
 * environment), so a kept parse is what parsing again would give. Validation still runs over every document.
 */
import { readFile, stat } from 'node:fs/promises';
import { DEFAULT_MAX_FILE_BYTES, parseYamlFile, readManifestFile, type ParseOptions } from '../manifests/index.js';
import type { ParsedFile } from '../manifests/load.js';

export function createParseCache(): { read(file: string, opts: ParseOptions): Promise<ParsedFile>; readonly size: number } {
  const kept = new Map<string, { bytes: Buffer; parsed: ParsedFile }>();
  return {
    async read(file, opts) {
      let bytes: Buffer;
      try {
        if ((await stat(file)).size > (opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES)) throw new Error('too large');
        bytes = await readFile(file);
      } catch {
        // Too large, gone or unreadable: the loader's own reader says so (as an issue).
        kept.delete(file);
        return readManifestFile(file, opts);
      }
      const last = kept.get(file);
      if (last && last.bytes.equals(bytes)) return last.parsed;
      const parsed = parseYamlFile(file, bytes, opts);
      if (parsed.issues.length === 0) kept.set(file, { bytes, parsed });
      else kept.delete(file);
      return parsed;
    },
    get size() {
      return kept.size;
    },
  };
}
