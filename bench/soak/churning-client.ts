import { get, type ClientRequest } from 'node:http';
import { createParser } from 'eventsource-parser';
import { isReset } from '../http-request.ts';
import { recordMs } from '../latency.ts';
import type { ListRead } from './list-read.ts';
import { between } from './random.ts';
import { nextAsk } from './stream-ask.ts';
import { StreamCheck, type CheckDeps } from './stream-check.ts';

export interface ClientDeps extends CheckDeps {
  readonly port: number;
}

const LIFETIME_MS = [100, 5000] as const;
/**
 * Mostly back at once, as EventSource is after a drop; sometimes away long enough that the
 * changes missed outrun the replay buffer, so the snapshot a resume then gets is tested too.
 */
const pauseMs = () => (Math.random() < 0.9 ? between(0, 300) : between(1000, 4000));

/** One event client: it opens a stream, keeps it a random while, leaves, and comes back. */
export class ChurningClient {
  readonly #deps: ClientDeps;
  readonly #name: string;
  readonly #check: StreamCheck;
  readonly #steady: boolean;
  #stopping = false;
  #opened = false;
  /** The list as it was once the traffic stopped: the client may leave when it has reached it. */
  #final: ListRead | undefined;
  /** The seq this stream has brought the client to; undefined until its opening arrives. */
  #streamSeq: number | undefined;
  #lifetime: NodeJS.Timeout | undefined;
  #close: (() => void) | undefined;
  #pause: { timer: NodeJS.Timeout; end: () => void } | undefined;

  /** A steady client keeps its stream until the end (or until the service drops it). */
  constructor(deps: ClientDeps, index: number, steady = false) {
    this.#deps = deps;
    this.#name = `${steady ? 'steady ' : ''}event client ${index}`;
    this.#check = new StreamCheck(deps, this.#name);
    this.#steady = steady;
  }

  /** Whether a stream of this client has ever had its opening. */
  get opened(): boolean {
    return this.#opened;
  }

  /** The seq the open stream has reached, or undefined when no stream is open. */
  get streamSeq(): number | undefined {
    return this.#close === undefined ? undefined : this.#streamSeq;
  }

  get connected(): boolean {
    return this.#close !== undefined;
  }

  async run(): Promise<void> {
    while (!this.#stopping) {
      await this.#stream();
      if (this.#stopping) break;
      if (this.#steady) continue;
      await new Promise<void>((end) => (this.#pause = { timer: setTimeout(end, pauseMs()), end }));
      this.#pause = undefined;
    }
  }

  /** Opens no more streams; the one open stays until it has brought the client to `final`. */
  finish(final: ListRead): void {
    this.#stopping = true;
    this.#final = final;
    clearTimeout(this.#lifetime);
    if (this.#pause) {
      clearTimeout(this.#pause.timer);
      this.#pause.end();
    }
    this.#leaveIfCaughtUp();
  }

  /** Leaves at once, caught up or not. */
  close(): void {
    this.#stopping = true;
    this.#close?.();
  }

  #stream(): Promise<void> {
    const { path, headers, opening } = nextAsk(this.#deps.run, this.#check.lastSeq, this.#steady);
    this.#check.begin(opening);
    this.#streamSeq = undefined;
    const { tally, port } = this.#deps;
    return new Promise((resolve) => {
      const asked = performance.now();
      let ours = false;
      let openedAt: number | undefined;
      const request: ClientRequest = get({ host: '127.0.0.1', port, path, headers, agent: false });
      const close = () => {
        ours = true;
        clearTimeout(this.#lifetime);
        request.destroy();
      };
      this.#close = close;
      request.on('response', (response) => {
        if (response.statusCode !== 200) {
          const failure = `${this.#name}: GET ${path} answered ${response.statusCode}`;
          this.#deps.failures.add('event stream error', failure);
          return close();
        }
        recordMs(tally.answerMs, performance.now() - asked);
        openedAt = performance.now();
        tally.connected += 1;
        tally.open += 1;
        tally.peakOpen = Math.max(tally.peakOpen, tally.open);
        if (opening.kind === 'resume') this.#streamSeq = opening.after;
        if (this.#final === undefined && !this.#steady) {
          this.#lifetime = setTimeout(close, between(...LIFETIME_MS));
        }
        const parser = createParser({
          onEvent: (event) => {
            this.#check.onEvent(event);
            this.#streamSeq = this.#check.lastSeq;
            this.#opened = true;
            this.#leaveIfCaughtUp();
          },
        });
        response.setEncoding('utf8');
        response.on('data', (text: string) => parser.feed(text));
        response.on('end', () => {
          if (!ours) tally.endedByServer += 1;
        });
        response.on('error', (error) => ours || this.#lost(error));
        this.#leaveIfCaughtUp();
      });
      request.on('error', (error) => ours || this.#lost(error));
      request.on('close', () => {
        if (openedAt !== undefined) {
          tally.open -= 1;
          tally.openMs += performance.now() - openedAt;
        }
        this.#close = undefined;
        clearTimeout(this.#lifetime);
        resolve();
      });
    });
  }

  #leaveIfCaughtUp(): void {
    const final = this.#final;
    if (final === undefined || this.#streamSeq === undefined || this.#streamSeq < final.seq) return;
    this.#check.endsAt(final);
    this.#close?.();
  }

  #lost(error: NodeJS.ErrnoException): void {
    const detail = `${this.#name}: ${error.code ?? ''} ${error.message}`;
    this.#deps.failures.add(isReset(error) ? 'connection reset' : 'event stream error', detail);
  }
}
