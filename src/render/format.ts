/** The formats a plan (and an apply's result) is rendered in. */
export const PLAN_FORMATS = ['text', 'markdown', 'json'] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

export function isPlanFormat(value: string): value is PlanFormat {
  return (PLAN_FORMATS as readonly string[]).includes(value);
}
