import { MIB } from './format.ts';

/**
 * The most the service's heap may grow between the end of the warm-up and the end of the
 * run, each measured after two forced full collections with no request in flight and no
 * stream open. What the service keeps on purpose is full by then: the warm-up makes twice
 * `sse.replayEvents` changes, so the replay history (and the frames cached for it) no longer
 * grows, and every item made is deleted again. Runs of 30 to 60 s on a busy 2-core machine
 * moved it by −0.07 to +0.27 MiB: 1 MiB is over three times that, and still small enough that
 * a leak of one small object per request (44 B at the 24,000 requests a loaded 60 s run
 * serves) crosses it. The report says what it means for each run.
 */
export const HEAP_GROWTH_BOUND = 1 * MIB;
