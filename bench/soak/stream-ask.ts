import { weighted } from './random.ts';
import type { Opening } from './stream-check.ts';

type Ask = 'resume (header)' | 'resume (query)' | 'new' | 'foreign id' | 'garbage id';

/** Mostly resuming, as EventSource does; sometimes as a new page, or with an id from elsewhere. */
const ASKS: readonly (readonly [Ask, number])[] = [
  ['resume (header)', 55],
  ['resume (query)', 15],
  ['new', 15],
  ['foreign id', 10],
  ['garbage id', 5],
];

export interface StreamAsk {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** What the stream must open with, given how it was asked for. */
  readonly opening: Opening;
}

/**
 * How a client asks for its next stream, having got events up to `lastSeq` of run `run`.
 * A steady client always resumes where it was.
 */
export function nextAsk(run: string, lastSeq: number | undefined, steady: boolean): StreamAsk {
  const accept = { accept: 'text/event-stream' };
  const ask = lastSeq === undefined ? 'new' : steady ? 'resume (header)' : weighted(ASKS);
  if (lastSeq === undefined || ask === 'new') {
    return { path: '/api/sse', headers: accept, opening: { kind: 'new' } };
  }
  const opening = { kind: 'resume', after: lastSeq } as const;
  const id = `${run}.${lastSeq}`;
  if (ask === 'resume (header)') {
    return { path: '/api/sse', headers: { ...accept, 'last-event-id': id }, opening };
  }
  if (ask === 'resume (query)')
    return { path: `/api/sse?lastEventId=${id}`, headers: accept, opening };
  // An id from another run of the service (it restarted), or one it never made.
  const unknown = ask === 'foreign id' ? `${run}-earlier.${lastSeq}` : 'not-an-id';
  return {
    path: '/api/sse',
    headers: { ...accept, 'last-event-id': unknown },
    opening: { kind: 'unknown id' },
  };
}
