import { afterEach, describe, expect, it, vi } from 'vitest';
import { batched } from '../../src/hosts/node/batched-lines.ts';

function recordingSink() {
  const writes: string[] = [];
  return { writes, sink: { write: (text: string) => writes.push(text) } };
}

describe('log lines written together', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the lines of a burst as one piece, in order, within 50 ms', () => {
    vi.useFakeTimers();
    const { writes, sink } = recordingSink();
    const out = batched(sink);
    out.write('a\n');
    out.write('b\n');
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(writes).toEqual(['a\nb\n']);
  });

  it('writes at once when 16 KiB is held', () => {
    vi.useFakeTimers();
    const { writes, sink } = recordingSink();
    const out = batched(sink);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 16; i += 1) out.write(line);
    expect(writes).toEqual([line.repeat(16)]);
  });

  it('writes what it holds when told to, and nothing more later', () => {
    vi.useFakeTimers();
    const { writes, sink } = recordingSink();
    const out = batched(sink);
    out.write('a\n');
    out.flush();
    vi.advanceTimersByTime(100);
    expect(writes).toEqual(['a\n']);
  });
});
