// The part of autocannon 9's programmatic API the bench uses, durations and timeouts in seconds.
// The package ships no types; @types/autocannon 7 has the `response` event and the result wrong.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Returns the request to send; called once for every request made. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
      onResponse?: (
        status: number,
        body: string,
        context: Record<string, unknown>,
        headers: Record<string, string>,
      ) => void;
    }

    interface Options {
      url: string;
      connections: number;
      duration: number;
      /** At most this many requests, spread over the connections; the duration still bounds it. */
      maxOverallRequests?: number;
      timeout: number;
      requests: Request[];
    }

    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      statusCodeStats: Record<string, { count: number }>;
      /** Bytes received. */
      throughput: { total: number };
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
