/**
 * The bounds the benchmark compares docops against, computed from the generated organization's sizes alone
 * (never from docops's own view of what it fetched):
 * - requests: every list the diff needs costs ⌈items/1000⌉ pages (at least one, an empty list is one page);
 * - time: the longer of the longest chain of dependent requests and all requests spread over the pool;
 * - apply: per plan group the longer of its longest step and its requests spread over the pool, summed
 *   (groups run one after another by design).
 */

/** The API's largest page. */
export const MAX_PAGE = 1000;

/** Pages one full list of `items` costs. */
export function pagesOf(items: number): number {
  return Math.max(1, Math.ceil(items / MAX_PAGE));
}

/** One list (or single GET) the diff needs; `after` names the list whose answer gives its path (a child list). */
export interface ListNeed {
  name: string;
  items: number;
  /** A single GET instead of a list: always one request. */
  single?: boolean;
  /** Parent list whose items name this list (e.g. a team's member list needs the teams list first). */
  after?: string;
}

export const requestsOf = (n: ListNeed): number => (n.single ? 1 : pagesOf(n.items));

/** The fewest requests that can read every needed list. */
export function lowerBoundRequests(needs: readonly ListNeed[]): number {
  return needs.reduce((sum, n) => sum + requestsOf(n), 0);
}

/** Requests on the longest chain of dependent requests: pages of a list are sequential, a child list follows its parent. */
export function longestChain(needs: readonly ListNeed[]): number {
  const byName = new Map(needs.map((n) => [n.name, n]));
  const memo = new Map<string, number>();
  const chain = (n: ListNeed, seen: Set<string>): number => {
    const known = memo.get(n.name);
    if (known !== undefined) return known;
    if (seen.has(n.name)) throw new Error(`list needs form a cycle at ${n.name}`);
    const parent = n.after === undefined ? undefined : byName.get(n.after);
    if (n.after !== undefined && !parent) throw new Error(`list ${n.name} follows unknown list ${n.after}`);
    const value = requestsOf(n) + (parent ? chain(parent, new Set([...seen, n.name])) : 0);
    memo.set(n.name, value);
    return value;
  };
  return needs.reduce((m, n) => Math.max(m, chain(n, new Set())), 0);
}

export interface TimeBound {
  chainRequests: number;
  totalRequests: number;
  concurrency: number;
  latencyMs: number;
}

/** max(chain × latency, ⌈total ÷ concurrency⌉ × latency): no schedule can be faster with this latency and pool. */
export function criticalPathMs(b: TimeBound): number {
  if (b.concurrency < 1) throw new Error('concurrency must be at least 1');
  return Math.max(b.chainRequests, Math.ceil(b.totalRequests / b.concurrency)) * b.latencyMs;
}

/** One apply group: the request count of each of its steps. */
export type GroupRequests = readonly number[];

/** Σ over groups of max(longest step, ⌈group requests ÷ concurrency⌉) × latency. */
export function applyBoundMs(groups: readonly GroupRequests[], concurrency: number, latencyMs: number): number {
  if (concurrency < 1) throw new Error('concurrency must be at least 1');
  let rounds = 0;
  for (const g of groups) {
    if (g.length === 0) continue;
    const total = g.reduce((a, b) => a + b, 0);
    rounds += Math.max(Math.max(...g), Math.ceil(total / concurrency));
  }
  return rounds * latencyMs;
}
