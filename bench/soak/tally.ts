import { latencies, recordMs, type Latencies } from '../latency.ts';

/** What the event clients saw, counted as it happens. */
export class EventTally {
  /** Change events received, every client counted (a replayed one too). */
  changes = 0;
  snapshots = 0;
  /** Streams that answered 200. */
  connected = 0;
  /** Streams open now, and the most open at once. */
  open = 0;
  peakOpen = 0;
  /** The time every stream was open, added up: divided by the phase's time, how many were. */
  openMs = 0;
  /** Resumes given exactly the events they missed. */
  replayed = 0;
  /** Resumes too far behind for the replay buffer, rightly given a snapshot. */
  tooOld = 0;
  /** Foreign or garbage ids, rightly given a snapshot. */
  unknownIds = 0;
  /** Streams the service ended itself (it drops a client more than 1 MiB behind). */
  endedByServer = 0;
  /** From asking for a stream to its answer's headers. */
  readonly answerMs = latencies();
}

/** Requests made, by kind, with their latencies. */
export class ApiTally {
  readonly byKind = new Map<string, Latencies>();
  /** Creates, updates and deletes that succeeded: each must have made exactly one event. */
  changes = 0;

  get requests(): number {
    let total = 0;
    for (const histogram of this.byKind.values()) total += histogram.count;
    return total;
  }

  record(kind: string, ms: number): void {
    let histogram = this.byKind.get(kind);
    if (histogram === undefined) this.byKind.set(kind, (histogram = latencies()));
    recordMs(histogram, ms);
  }

  all(): Latencies {
    const all = latencies();
    for (const histogram of this.byKind.values()) all.add(histogram);
    return all;
  }
}
