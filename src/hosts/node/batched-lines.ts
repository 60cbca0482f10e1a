/** Where log lines go: a stream, or anything else that takes text. */
export interface LineSink {
  write(text: string): unknown;
}

/** A sink that can be told to pass on what it holds now. */
export interface BatchedSink extends LineSink {
  flush(): void;
}

/** Under load lines go out in pieces of this size; a line is never held longer than the delay. */
const FLUSH_AT_CHARS = 16 * 1024;
const FLUSH_AFTER_MS = 50;

/**
 * Holds lines and writes them together. A write to a pipe or file is a synchronous system call
 * on Linux: one per request line was a fifth of the server's CPU, and still a tenth when written
 * once per turn of the event loop. What is held is written on exit, crashes included; only a
 * SIGKILL can lose it, and then at most the last 50 ms.
 */
export function batched(target: LineSink): BatchedSink {
  let held = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  let exitHooked = false;

  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (held === '') return;
    const text = held;
    held = '';
    target.write(text);
  };

  return {
    write(text: string) {
      held += text;
      if (held.length >= FLUSH_AT_CHARS) return flush();
      if (timer !== undefined) return;
      // Unreferenced: waiting lines must not keep a process alive that has nothing else to do.
      timer = setTimeout(flush, FLUSH_AFTER_MS).unref();
      if (!exitHooked) {
        exitHooked = true;
        process.once('exit', flush);
      }
    },
    flush,
  };
}
