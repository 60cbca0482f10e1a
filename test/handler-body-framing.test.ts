import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { DEFAULT_APP_CONFIG } from '../src/config.ts';

const LIMIT = DEFAULT_APP_CONFIG.limits.maxBodyBytes;

function createWithBody(body: string, declaredLength: number): Request {
  return new Request('http://localhost/api/todos', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(declaredLength) },
    body,
  });
}

// A host whose HTTP parser frames bodies by Content-Length (Node) lets the handler read a
// declared body whole; the limit must hold all the same.
describe('the handler on a host that frames bodies by their Content-Length', () => {
  const app = () => createApp({ contentLengthIsExact: true });

  it('stores a declared body within the limit', async () => {
    const body = JSON.stringify({ title: 'Buy milk' });
    const response = await app().fetch(createWithBody(body, body.length));
    expect(response.status).toBe(201);
  });

  it('still refuses a body over the limit whose declared length is within it', async () => {
    const service = app();
    const body = JSON.stringify({ title: 'x'.repeat(LIMIT) });
    const response = await service.fetch(createWithBody(body, 10));
    expect(response.status).toBe(413);
    expect(service.store.size).toBe(0);
  });

  it('refuses a declared length over the limit without reading the body', async () => {
    let pulled = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull() {
          pulled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const response = await app().fetch(
      new Request('http://localhost/api/todos', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(LIMIT + 1) },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(pulled).toBe(false);
  });
});
