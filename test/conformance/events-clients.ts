import { describe, expect, it } from 'vitest';
import { createTodo } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';
import { firstEvent, opened, openStream } from '../support/sse.ts';

/** Everything `response` sent within `ms`, as text: a bounded window to count heartbeats in. */
async function sentWithin(response: Response, ms: number): Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const timer = setTimeout(() => void reader.cancel(), ms);
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  clearTimeout(timer);
  return text;
}

/** docs/api.md, Live updates: heartbeats, clients that leave, the limit on streams, shutdown. */
export function eventClientsSuite(host: TestHost) {
  describe('GET /api/sse: heartbeat', () => {
    const api = useService(host, { sse: { heartbeatSeconds: 1 } });

    it('sends a ": ping" comment line as each heartbeat', async () => {
      const response = await api().fetch(api().paths.sse);
      const blocks = (await sentWithin(response, 1500)).split('\n\n');
      expect(blocks.filter((block) => block.startsWith(':'))[0]).toBe(': ping');
    });

    it('sends about one heartbeat per heartbeatSeconds', async () => {
      const response = await api().fetch(api().paths.sse);
      const pings = (await sentWithin(response, 3500)).split(': ping\n\n').length - 1;
      // A window of three and a half intervals holds three; a busy machine may delay one.
      expect(pings).toBeGreaterThanOrEqual(2);
      expect(pings).toBeLessThanOrEqual(4);
    });
  });

  describe('GET /api/sse: clients that leave', () => {
    const api = useService(host, { sse: { heartbeatSeconds: 1 } });

    it('forgets a few hundred clients that connected and left', async () => {
      const streams = [];
      for (let i = 0; i < 300; i += 1) streams.push(await openStream(api()));
      await Promise.all(streams.map((stream) => stream.nextBlock()));
      for (const stream of streams) stream.close();
      await expect
        .poll(() => api().streamStats(), { timeout: 5000 })
        .toEqual({
          openStreams: 0,
          heartbeatRunning: false,
        });
    }, 30000);

    it('keeps serving the clients that stay', async () => {
      const leaving = await openStream(api());
      const staying = await opened(api());
      await firstEvent(staying);
      leaving.close();
      const todo = await createTodo(api());
      expect(await staying.nextEvent()).toMatchObject({ event: 'created', data: todo });
    });
  });

  describe('GET /api/sse: the limit on open streams', () => {
    // Some hosts hear that a client left only when a write to it fails, at the latest at the
    // next heartbeat: keep that short.
    const api = useService(host, { sse: { maxClients: 2, heartbeatSeconds: 1 } });

    it('answers 503 with Retry-After and CORS beyond sse.maxClients', async () => {
      await opened(api());
      await opened(api());
      const response = await api().fetch(api().paths.sse);
      expect([
        response.status,
        response.headers.get('content-type'),
        response.headers.get('retry-after'),
        response.headers.get('access-control-allow-origin'),
      ]).toEqual([503, 'application/problem+json; charset=utf-8', '3', '*']);
    });

    it('accepts a new client once one has left', async () => {
      const first = await openStream(api());
      await opened(api());
      first.close();
      await expect
        .poll(async () => (await api().streamStats()).openStreams, { timeout: 5000 })
        .toBe(1);
      const again = await api().fetch(api().paths.sse);
      await again.body?.cancel();
      expect(again.status).toBe(200);
    });
  });

  describe('GET /api/sse: shutdown', () => {
    it('ends every open stream when the service stops', async () => {
      const service = await host.start();
      const stream = await openStream(service);
      await firstEvent(stream);
      await service.close();
      expect(await stream.nextBlock()).toBeUndefined();
    });
  });
}
