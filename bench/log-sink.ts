import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';

let sink: ChildProcess | undefined;

/**
 * Where the servers' stdout goes: a process of its own that reads it and drops it. Node writes
 * to a stdout pipe synchronously, so a reader that waits its turn in this process's busy event
 * loop would stall the server under test; a log collector in prod reads on its own.
 */
export function logSink(): Writable {
  if (sink === undefined) {
    sink = spawn(process.execPath, ['-e', 'process.stdin.resume()'], {
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    // Only the servers write to it; it must not keep this process alive.
    sink.unref();
    (sink.stdin as Writable & { unref(): void }).unref();
  }
  return sink.stdin!;
}

export function stopLogSink(): void {
  sink?.kill('SIGKILL');
  sink = undefined;
}
