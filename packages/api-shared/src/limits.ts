/**
 * Sizes the API gives no limit for (neither management-api.md nor the official spec), chosen once and shared by
 * docops, which reads and sends such values, and the sandbox, which accepts them: a value docops validates is one
 * the sandbox takes, and one it refuses the sandbox refuses too.
 */

/**
 * An OpenAPI spec's text (`source: {text}`; the spec gives only `minLength: 1`): generous, far above the largest
 * public specs (a few MiB), so a spec file is refused only when it cannot be a spec.
 */
export const OPENAPI_TEXT_MAX_BYTES = 25 * 1024 * 1024;
