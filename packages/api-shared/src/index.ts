/**
 * What docops and its sandbox both need of the management API and agree on: the methods, the sizes the API
 * gives no limit for, and the customization of a new site. Imports nothing of either.
 */
export type { HttpMethod } from './http.js';
export { OPENAPI_TEXT_MAX_BYTES } from './limits.js';
export { newSiteCustomization } from './site-customization.js';
