import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { DEFAULT_APP_CONFIG } from '../src/config.ts';

describe('the handler reading a body', () => {
  it('reads no more than the limit of a body that never ends', async () => {
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = new Uint8Array(1024).fill(0x20);
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const app = createApp();
    const response = await app.fetch(
      new Request('http://localhost/api/todos', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    // The stream may run a few chunks ahead of the reader, never far.
    expect(sent).toBeLessThan(DEFAULT_APP_CONFIG.limits.maxBodyBytes + 8 * 1024);
  });

  it('refuses a declared Content-Length over the limit without reading the body', async () => {
    let pulled = false;
    // With no high-water mark, the stream is pulled only when someone reads it.
    const body = new ReadableStream<Uint8Array>(
      {
        pull() {
          pulled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const app = createApp();
    const response = await app.fetch(
      new Request('http://localhost/api/todos', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '999999' },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(pulled).toBe(false);
  });
});
