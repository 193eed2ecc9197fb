/** Where delete journals (and what lists may not show yet, src/api/expectations-file.ts) are kept by default. */
export const DEFAULT_JOURNAL_DIR = '.docops/journal';
