/** One entry point for rendering a plan in the format the user asked for. */
import type { Plan } from '../model/plan.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import { renderText } from './text.js';
import type { PlanFormat } from './format.js';

export { PLAN_FORMATS, isPlanFormat, type PlanFormat } from './format.js';

export interface RenderOptions {
  /** ANSI colour (text format only). */
  color?: boolean;
}

export function renderPlan(plan: Plan, format: PlanFormat, options: RenderOptions = {}): string {
  switch (format) {
    case 'text':
      return renderText(plan, { color: options.color ?? false });
    case 'markdown':
      return renderMarkdown(plan);
    case 'json':
      return renderJson(plan);
  }
}

export { renderText } from './text.js';
export { renderMarkdown, MARKDOWN_MAX_LENGTH } from './markdown.js';
export { renderJson } from './json.js';
export { applyResultData, renderApplyReport, stepSources } from './apply-report.js';
export type { ApplyResult, StepSources } from './apply-report.js';
export { shouldColor, createColors } from './ansi.js';
