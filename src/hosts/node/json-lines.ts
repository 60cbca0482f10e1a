import type { DestinationStream } from 'pino';
import sonicBoom from 'sonic-boom';

/** Under load, lines go out together in writes of about this many characters... */
const HELD_AT_MOST = 16 * 1024;
/** ...and a line waits no longer than this for others to join it. */
const HELD_FOR_MS = 50;

/**
 * The prod log's destination: lines held and written to stdout together, through sonic-boom,
 * pino's own writer. One write per line cost more than the line itself: a line is a few hundred
 * nanoseconds to make, a write a system call. A batch is written synchronously, as pino writes
 * by default: a reader that stops reading without going away holds the service up once its pipe
 * is full, where an asynchronous writer would hold every line in memory instead; and a thread of
 * its own for the writes cost more CPU than it saved on the one core a service is measured on.
 *
 * Lines still held when the process exits, crashes included, are written first; only SIGKILL
 * loses them, at most the last 50 ms. Once nothing reads stdout any more (the log collector
 * died, `| pino-pretty` was stopped) the log ends there and the service goes on.
 *
 * sonic-boom 5, not the 4 inside `pino.destination()`: with no reader, 4's flush at exit
 * retries the failed write every 100 ms for ever, and the process hangs, deaf to signals.
 * Each call adds a listener for the process's exit: the host makes one logger for its life.
 */
export function jsonLines(): DestinationStream {
  const stdout = new sonicBoom.SonicBoom({ fd: 1, sync: true });
  let readerGone = false;
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    readerGone = true;
  });
  let held = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const text = held;
    held = '';
    if (text !== '' && !readerGone) stdout.write(text);
  };
  process.once('exit', () => {
    try {
      flush();
    } catch {
      // The process is ending either way: a line it cannot write (the reader went away at the
      // last moment) must not turn a clean exit into a crash.
    }
  });
  return {
    write(line: string) {
      held += line;
      if (held.length >= HELD_AT_MOST) flush();
      // Unreferenced: lines waiting must not keep alive a process that has nothing else to do.
      else timer ??= setTimeout(flush, HELD_FOR_MS).unref();
    },
  };
}
