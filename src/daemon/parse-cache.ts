/**
 * The daemon's manifest parser: a file whose bytes equal those of its last clean parse gets that parse again
 * instead of being parsed anew. A save of one file re-parses one file, not the whole directory (YAML parsing is
 * most of a load: ~2/3 on a 10,000-member organization). Keyed by path and compared byte for byte, never by mtime;
 * only parses without issues are kept, and the variables manifests read are fixed for the daemon's life (its
 * environment), so a kept parse is what parsing again would give. Validation still runs over every document.
 * The loader reads each file once and hands its bytes here; data files (`{file}`) never come here.
 */
import { parseYamlFile, type ParseOptions, type ParseResult } from '../manifests/index.js';

export function createParseCache(): {
  parse(file: string, bytes: Uint8Array, opts: ParseOptions): ParseResult;
  readonly size: number;
} {
  const kept = new Map<string, { bytes: Buffer; parsed: ParseResult }>();
  return {
    parse(file, bytes, opts) {
      const last = kept.get(file);
      if (last && last.bytes.equals(bytes)) return last.parsed;
      const parsed = parseYamlFile(file, bytes, opts);
      if (parsed.issues.length === 0)
        kept.set(file, { bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes), parsed });
      else kept.delete(file);
      return parsed;
    },
    get size() {
      return kept.size;
    },
  };
}
