/**
 * Depths shared by kinds that import each other (Collection moves spaces out before a delete; Space reads
 * collections). A leaf module, so the import cycle between collection.ts and space.ts never reads a constant
 * before it is initialised.
 */
export const SPACE_DEPTH = 26;
