/**
 * A one-line progress indicator on stderr for long reads (export of a large organization). Shown only when
 * stderr is a terminal; redrawn at most every 100 ms; cleared when done.
 */
import type { ApiClient } from '../model/api-client.js';
import type { OutputStream } from './io.js';

export interface Progress {
  /** One more API read finished. */
  tick(): void;
  /** A new phase (redrawn at once). */
  phase(label: string): void;
  done(): void;
}

const NOOP: Progress = { tick: () => {}, phase: () => {}, done: () => {} };

export function createProgress(stream: OutputStream, title: string, now: () => number = Date.now): Progress {
  if (stream.isTTY !== true) return NOOP;
  let reads = 0;
  let label = '';
  let last = 0;
  let shown = false;
  const draw = (): void => {
    last = now();
    shown = true;
    stream.write(`\r\x1b[K${title}${label ? ` (${label})` : ''}: ${reads} read${reads === 1 ? '' : 's'}…`);
  };
  return {
    tick: () => {
      reads++;
      if (now() - last >= 100) draw();
    },
    phase: (l) => {
      label = l;
      draw();
    },
    done: () => {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}

/** The same client, calling `onRead` after every GET and every complete list. */
export function countingClient(client: ApiClient, onRead: () => void): ApiClient {
  const after = <T>(p: Promise<T>): Promise<T> => p.finally(onRead);
  return {
    get baseUrl() {
      return client.baseUrl;
    },
    request: (method, path, options) =>
      method === 'GET' ? after(client.request(method, path, options)) : client.request(method, path, options),
    get: (path, query) => after(client.get(path, query)),
    paginate: (path, query) => client.paginate(path, query),
    listAll: (path, query) => after(client.listAll(path, query)),
    close: () => client.close(),
  };
}
