import { describe, expect, it } from 'vitest';
import { serviceAt, useNodeServer } from '../support/node-server.ts';
import { listState } from '../support/api.ts';
import { exchange } from '../support/raw-client.ts';

const MAX_HEADER_BYTES = 4096;

/**
 * A GET /hello whose URL, header names and header values come to `counted` bytes: what Node
 * counts against `maxHeaderSize` (the method, version, colons and line ends are not counted),
 * refusing the request once the count reaches it.
 */
function helloCounting(counted: number): string {
  const head = 'GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n';
  const countedSoFar = '/hello'.length + 'Host'.length + 'x'.length + 'Connection'.length + 5;
  const fill = counted - countedSoFar - 'X-Fill'.length;
  return `${head}X-Fill: ${'a'.repeat(fill)}\r\n\r\n`;
}

describe('the Node host and server.maxHeaderBytes', () => {
  const running = useNodeServer({ server: { maxHeaderBytes: MAX_HEADER_BYTES } });

  it('accepts headers that count one byte under the limit', async () => {
    const reply = await exchange(running().url, helloCounting(MAX_HEADER_BYTES - 1));
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('refuses headers that count exactly the limit with 431, and keeps serving', async () => {
    const before = await listState(serviceAt(running().url));
    const reply = await exchange(running().url, helloCounting(MAX_HEADER_BYTES));
    expect(reply).toMatch(/^HTTP\/1\.1 431 /);
    expect(await listState(serviceAt(running().url))).toEqual(before);
  });
});
