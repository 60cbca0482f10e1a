// Type-checked with the workers types (tsconfig.worker.json), as the module it tests is.
import { describe, expect, it } from 'vitest';
import { relayEvents } from '../../src/hosts/workerd/event-relay.ts';
import { OPENING_BYTES_HEADER, STREAM_ENDED } from '../../src/hosts/workerd/relay-protocol.ts';

describe('the worker relaying a stream', () => {
  const leftEarly = async () => {
    const closedWith: number[] = [];
    let freed = 0;
    const socket = {
      accept: () => {},
      addEventListener: () => {},
      close: (code: number) => closedWith.push(code),
    };
    const answer = { webSocket: socket, headers: new Headers({ [OPENING_BYTES_HEADER]: '0' }) };
    const object = { fetch: async () => answer } as unknown as DurableObjectStub;
    const request = new Request('http://localhost/api/sse', { signal: AbortSignal.abort() });
    await relayEvents(
      request,
      () => object,
      15,
      () => (freed += 1),
    );
    return { closedWith, freed };
  };

  it('closes the socket to the object when the client left before it came', async () => {
    expect((await leftEarly()).closedWith).toEqual([STREAM_ENDED]);
  });

  it('frees the client’s place once when the client left before the stream came', async () => {
    expect((await leftEarly()).freed).toBe(1);
  });
});
