/**
 * A small router: method + path pattern with `:params`. Resolving a path that matches some pattern but
 * not for this method yields the allowed methods, so the server can answer 405 with an Allow header.
 */
import type { HttpMethod } from '@docops/api-shared';
import type { Validator } from './validate.js';
import type { Handler } from './context.js';

export interface RouteDef<B = unknown> {
  method: HttpMethod;
  /** Pattern below the origin, e.g. `/v1/orgs/:organizationId/teams`. */
  pattern: string;
  /** Validator of the JSON body; absent ⇒ the operation takes no body (an empty body or `{}` only). */
  body?: Validator<B>;
  /** The body may be omitted even though `body` is set (e.g. optional-body PUTs). */
  bodyOptional?: boolean;
  /** The largest body read (default MAX_BODY_BYTES, http.ts): larger ⇒ 413 before it is parsed. */
  maxBodyBytes?: number;
  handler: Handler<B>;
}

interface CompiledRoute extends RouteDef {
  segments: string[];
}

export type Resolution =
  | { kind: 'found'; route: RouteDef; params: Record<string, string> }
  | { kind: 'method-not-allowed'; pattern: string; allowed: HttpMethod[] }
  | { kind: 'not-found' };

export class Router {
  private readonly routes: CompiledRoute[] = [];

  add<B = undefined>(def: RouteDef<B>): this {
    const duplicate = this.routes.find((r) => r.method === def.method && r.pattern === def.pattern);
    if (duplicate) throw new Error(`route registered twice: ${def.method} ${def.pattern}`);
    // eslint-disable-next-line no-restricted-syntax -- a route's handler is typed by its own pattern's params; the table holds them all
    this.routes.push({ ...(def as unknown as RouteDef), segments: split(def.pattern) });
    return this;
  }

  resolve(method: string, path: string): Resolution {
    const parts = split(path);
    const allowed: HttpMethod[] = [];
    let pattern = '';
    for (const route of this.routes) {
      const params = match(route.segments, parts);
      if (!params) continue;
      if (route.method === method) return { kind: 'found', route, params };
      allowed.push(route.method);
      pattern = route.pattern;
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', pattern, allowed } : { kind: 'not-found' };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function match(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const part = parts[i] as string;
    if (p.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(part);
      } catch {
        return undefined;
      }
      params[p.slice(1)] = value;
    } else if (p !== part) {
      return undefined;
    }
  }
  return params;
}
