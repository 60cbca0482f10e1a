import { bodyBytes } from './body-bytes.ts';
import type { ModelLimits } from './model.ts';
import type { Condition, Sending } from './spec.ts';

/** The headers, body and framing of `send`; `pathId` is what an `id` that repeats it holds. */
export function sent(limits: ModelLimits, send: Sending, pathId?: string) {
  const headers: Record<string, string> =
    send.mediaType === null ? {} : { 'content-type': send.mediaType };
  return {
    headers,
    body: bodyBytes(send, limits.maxBodyBytes, pathId),
    chunked: send.chunked,
  };
}

/** The If-Match or If-None-Match header `condition` makes, or undefined for none. */
export function conditionHeader(
  condition: Condition,
  current: string | undefined,
  stale: () => string,
): string | undefined {
  switch (condition) {
    case 'none':
      return undefined;
    case 'star':
      return '*';
    case 'stale':
      return stale();
    case 'current':
      return current;
    case 'weak-current':
      return current && `W/${current}`;
    case 'among-others':
      return current && `"other", ${current}`;
  }
}

/** `{ [name]: value }`, or no header when there is no value. */
export function header(name: string, value: string | undefined): Record<string, string> {
  return value === undefined ? {} : { [name]: value };
}
