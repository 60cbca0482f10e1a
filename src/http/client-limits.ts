import { HttpProblem } from './problem.ts';

/** A quota of requests in a window, as the `RateLimit-Policy` header names it. */
export interface RatePolicy {
  readonly quota: number;
  readonly windowSeconds: number;
}

/** What counting one request found. */
interface RateCount {
  readonly allowed: boolean;
  /** Requests left in the window; undefined where the counter cannot tell (workerd's binding). */
  readonly remaining?: number;
  /** Seconds until the client may count on a request being taken again. */
  readonly resetSeconds: number;
}

/** Counts each client's requests under one policy: in this process, or the platform's counter. */
export interface RateLimiter {
  readonly policy: RatePolicy;
  take(client: string): RateCount | Promise<RateCount>;
}

/**
 * A limiter over a platform's counter that says only whether a request may go on (workerd's
 * Rate Limiting binding, a minute's window): the quota is given for the headers, and a whole
 * window is the longest a refused client waits.
 */
export function bindingLimiter(
  counter: { limit(options: { key: string }): Promise<{ success: boolean }> },
  quota: number,
): RateLimiter {
  const windowSeconds = 60;
  return {
    policy: { quota, windowSeconds },
    take: async (client) => {
      const { success } = await counter.limit({ key: client });
      return { allowed: success, resetSeconds: windowSeconds };
    },
  };
}

/** The policy's name in the headers (draft-ietf-httpapi-ratelimit-headers). */
const POLICY = '"lists"';

/**
 * A window of `policy.windowSeconds` that opens with a client's first request. Clients whose
 * window has passed are forgotten once a window, so only those seen lately are held.
 */
export function fixedWindowLimiter(policy: RatePolicy, now = () => Date.now()): RateLimiter {
  const windowMs = policy.windowSeconds * 1000;
  const windows = new Map<string, { readonly start: number; count: number }>();
  let sweptAt = now();
  return {
    policy,
    take(client) {
      const at = now();
      if (at - sweptAt >= windowMs) {
        for (const [held, { start }] of windows) if (at - start >= windowMs) windows.delete(held);
        sweptAt = at;
      }
      let window = windows.get(client);
      if (window === undefined || at - window.start >= windowMs) {
        window = { start: at, count: 0 };
        windows.set(client, window);
      }
      const resetSeconds = Math.max(1, Math.ceil((window.start + windowMs - at) / 1000));
      if (window.count >= policy.quota) return { allowed: false, remaining: 0, resetSeconds };
      window.count += 1;
      return { allowed: true, remaining: policy.quota - window.count, resetSeconds };
    },
  };
}

/**
 * Counts a list creation by `client` (none where the host cannot tell clients apart): the
 * headers of its answer, or a 429 that says when to retry.
 */
export async function admitCreation(
  limiter: RateLimiter,
  client: string | undefined,
): Promise<Record<string, string>> {
  if (client === undefined) return {};
  const { quota, windowSeconds } = limiter.policy;
  const { allowed, remaining, resetSeconds } = await limiter.take(client);
  const headers: Record<string, string> = {
    'ratelimit-policy': `${POLICY};q=${quota};w=${windowSeconds}`,
  };
  if (allowed) {
    if (remaining !== undefined) headers.ratelimit = `${POLICY};r=${remaining};t=${resetSeconds}`;
    return headers;
  }
  headers.ratelimit = `${POLICY};r=0;t=${resetSeconds}`;
  headers['retry-after'] = String(resetSeconds);
  throw new HttpProblem(
    429,
    `Too many lists made from this address: at most ${quota} every ${windowSeconds} seconds ` +
      `(limits.listsPerMinute). Retry in ${resetSeconds} seconds; nothing was made.`,
    { headers },
  );
}

/** How long a client refused a stream is asked to wait: streams stay open for minutes. */
const STREAM_RETRY_SECONDS = 30;

/** The open event streams of each client, across every list this process serves. */
export class OpenStreamsPerClient {
  readonly #open = new Map<string, number>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** Holds a place for a stream of `client`'s, or refuses with 429; the function frees it, once. */
  take(client: string | undefined): () => void {
    if (client === undefined) return () => {};
    const open = this.#open.get(client) ?? 0;
    if (open >= this.#max) {
      throw new HttpProblem(
        429,
        `This address has ${open} event streams open, the most allowed ` +
          `(sse.maxClientsPerAddress); close one, or retry in ${STREAM_RETRY_SECONDS} seconds.`,
        { headers: { 'retry-after': String(STREAM_RETRY_SECONDS) } },
      );
    }
    this.#open.set(client, open + 1);
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      const left = this.#open.get(client)! - 1;
      if (left === 0) this.#open.delete(client);
      else this.#open.set(client, left);
    };
  }
}
