/** Manifest loading and validation: the public surface used by the CLI, the daemon and its config loader. */
export {
  loadManifests,
  readManifestFile,
  sortIssues,
  type LoadInputs,
  type LoadOptions,
  type LoadResult,
} from './load.js';
export { parseYamlFile, type ParsedYamlDoc, type ParseOptions, type ParseResult } from './parse.js';
export { validateWithSchema, compileSchema, type Locate } from './schema.js';
export {
  ALLOW_ENTRY,
  allowedVariables,
  everyVariable,
  interpolateString,
  parseAllowList,
  type Env,
  type VarSource,
} from './interpolate.js';
export { findManifestFiles, isIgnoredDirectory } from './discover.js';
export { API_VERSION, ENVELOPE_FIELDS } from './envelope.js';
export { DEFAULT_MAX_FILE_BYTES } from './decode.js';
export { formatPath, type DocPath } from './paths.js';
export type { ManifestDocument } from '../model/document.js';
