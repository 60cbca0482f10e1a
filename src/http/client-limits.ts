import { HttpProblem } from './problem.ts';

/** What counting one request found; `remaining` is unknown to workerd's binding. */
interface RateCount {
  readonly allowed: boolean;
  readonly remaining?: number;
  /** Seconds until the client may count on a request being taken again. */
  readonly resetSeconds: number;
}

/** Counts each client's requests, a `quota` a window: in this process, or the platform's. */
export interface RateLimiter {
  readonly quota: number;
  take(client: string): RateCount | Promise<RateCount>;
}

/** The window of `limits.listsPerMinute`, and of workerd's Rate Limiting binding. */
const WINDOW_SECONDS = 60;

/** A counter that says only yes or no (workerd's binding): a refused client waits a window. */
export function bindingLimiter(
  counter: { limit(options: { key: string }): Promise<{ success: boolean }> },
  quota: number,
): RateLimiter {
  return {
    quota,
    take: async (client) => {
      const { success } = await counter.limit({ key: client });
      return { allowed: success, resetSeconds: WINDOW_SECONDS };
    },
  };
}

/** The policy's name in the headers (draft-ietf-httpapi-ratelimit-headers). */
const POLICY = '"lists"';

/** Windows that open at a client's first request; those passed are forgotten once a window. */
export function fixedWindowLimiter(quota: number): RateLimiter {
  const windowMs = WINDOW_SECONDS * 1000;
  const windows = new Map<string, { readonly start: number; count: number }>();
  let sweptAt = Date.now();
  return {
    quota,
    take(client) {
      const at = Date.now();
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
      if (window.count >= quota) return { allowed: false, remaining: 0, resetSeconds };
      window.count += 1;
      return { allowed: true, remaining: quota - window.count, resetSeconds };
    },
  };
}

/** Counts a list creation by `client`, if known: its answer's headers, or a 429 with a retry. */
export async function admitCreation(limiter: RateLimiter, client: string | undefined) {
  if (client === undefined) return {};
  const { quota } = limiter;
  const { allowed, remaining, resetSeconds } = await limiter.take(client);
  const headers: Record<string, string> = {
    'ratelimit-policy': `${POLICY};q=${quota};w=${WINDOW_SECONDS}`,
  };
  if (allowed) {
    if (remaining !== undefined) headers.ratelimit = `${POLICY};r=${remaining};t=${resetSeconds}`;
    return headers;
  }
  headers.ratelimit = `${POLICY};r=0;t=${resetSeconds}`;
  headers['retry-after'] = String(resetSeconds);
  throw new HttpProblem(
    429,
    `Too many lists made from this address: at most ${quota} every ${WINDOW_SECONDS} seconds ` +
      `(limits.listsPerMinute). Retry in ${resetSeconds} seconds; nothing was made.`,
    { headers },
  );
}

/** How long a client refused a stream is asked to wait: streams stay open for minutes. */
const STREAM_RETRY_SECONDS = 30;

/** The open event streams of each client, across every list this process serves. */
export class OpenStreamsPerClient {
  readonly #open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Holds a place for a stream of `client`'s, or refuses with 429; the function frees it, once. */
  take(client: string | undefined): () => void {
    if (client === undefined) return () => {};
    const open = this.#open.get(client) ?? 0;
    if (open >= this.max) {
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
