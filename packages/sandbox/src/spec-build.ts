/** What the build's generator of the official spec's body validators (tools/build/precompile-spec-bodies.ts) reads of the sandbox. */
export { ROUTES } from './routes/index.js';
export { SEED_SHAPED_BODIES, SPEC_BODIES_DIR } from './spec-bodies.js';
export { prepareSpecAjv, routeKey, SPEC_AJV_OPTIONS, specBodyRef } from './spec-operations.js';
