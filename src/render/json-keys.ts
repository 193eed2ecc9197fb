/** The keys of a plan's JSON form, in their fixed order, and its closed value sets: one list for the renderer and the parser. */
export const PLAN_KEYS = [
  'formatVersion',
  'steps',
  'unmanaged',
  'warnings',
  'blocked',
  'reported',
  'owned',
  'attribution',
] as const;
export const ATTRIBUTION_KEYS = ['changes', 'unavailable'] as const;
export const CHANGE_KEYS = ['step', 'actor', 'at', 'action'] as const;
export const STEP_KEYS = [
  'id',
  'action',
  'phase',
  'kind',
  'org',
  'key',
  'wave',
  'mode',
  'before',
  'after',
  'nulls',
  'dependsOn',
  'requests',
  'source',
  'note',
  'cascades',
] as const;
/** A reported change: a step's keys without requests and dependsOn (it is never sent). */
export const REPORTED_KEYS = [...STEP_KEYS.filter((k) => k !== 'requests' && k !== 'dependsOn'), 'drift'];
export const OWNED_KEYS = ['kind', 'org', 'key', 'id', 'what', 'owner'] as const;
export const CASCADE_KEYS = ['kind', 'org', 'key', 'id', 'note'] as const;
export const REQUEST_KEYS = [
  'method',
  'path',
  'body',
  'capture',
  'refs',
  'recover',
  'idempotent',
  'settle',
  'masked',
  'merge',
  'joins',
  'refusedWhen',
  'batch',
] as const;
export const REFUSED_KEYS = ['field', 'value', 'message'] as const;
export const BATCH_KEYS = ['list', 'max', 'results', 'failed'] as const;
export const MERGE_KEYS = ['omit', 'whole', 'pick', 'sets', 'remove', 'known'] as const;
export const JOIN_KEYS = ['list', 'ids'] as const;
export const SETTLE_KEYS = ['path', 'until', 'failWhen', 'reads'] as const;
export const SETTLE_UNTIL_KEYS = ['field', 'value'] as const;
export const SETTLE_FAIL_KEYS = ['field', 'message', 'detail'] as const;
export const RECOVER_KEYS = ['path', 'suffix', 'match', 'exclude', 'each'] as const;
export const RECOVER_MATCH_KEYS = ['field', 'body', 'value', 'ignoreCase', 'not'] as const;
export const SLOT_KEYS = ['at', 'offset', 'pointer', 'step', 'output'] as const;
export const SOURCE_KEYS = ['file', 'line', 'column'] as const;
export const UNMANAGED_KEYS = ['kind', 'org', 'key', 'id', 'mode'] as const;
export const WARNING_KEYS = ['kind', 'org', 'key', 'message'] as const;
export const BLOCKED_KEYS = ['kind', 'org', 'key', 'message', 'source'] as const;
export const ACTIONS = ['create', 'update', 'delete'] as const;
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
