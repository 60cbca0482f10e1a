import { describe, expect, it } from 'vitest';
import { LISTS_PATH } from '../../src/model/resources.ts';
import { useNodeServer } from '../support/node-server.ts';

const create = (url: string, forwardedFor: string) =>
  fetch(new URL(LISTS_PATH, url), { method: 'POST', headers: { 'x-forwarded-for': forwardedFor } });

describe('the client address behind a proxy (server.clientAddressHeader)', () => {
  const running = useNodeServer({
    limits: { listsPerMinute: 1 },
    server: { clientAddressHeader: 'X-Forwarded-For' },
  });

  it('counts creations by the last address of the named header, the one the proxy added', async () => {
    const { url } = running();
    expect((await create(url, '192.0.2.1, 10.0.0.1')).status).toBe(201);
    expect((await create(url, '192.0.2.2, 10.0.0.1')).status).toBe(429);
  });

  it('counts two addresses the header gives apart, from one connection', async () => {
    const { url } = running();
    expect((await create(url, '10.0.0.1')).status).toBe(201);
    expect((await create(url, '10.0.0.2')).status).toBe(201);
  });
});

describe('the client address with no proxy named', () => {
  const running = useNodeServer({ limits: { listsPerMinute: 1 } });

  it('ignores an X-Forwarded-For the client sends', async () => {
    const { url } = running();
    expect((await create(url, '10.0.0.1')).status).toBe(201);
    expect((await create(url, '10.0.0.2')).status).toBe(429);
  });

  it('tells what is left of the quota with each list made', async () => {
    const response = await create(running().url, '10.0.0.1');
    expect(response.headers.get('ratelimit')).toBe('"lists";r=0;t=60');
  });
});
