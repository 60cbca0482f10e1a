import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceSuite } from './conformance/index.ts';
import {
  stopWranglerDev,
  WranglerDev,
  wranglerDev,
  wranglerDevAsDeployed,
} from './support/wrangler-dev-host.ts';
import { refusedBodiesSuite } from './workerd/refused-bodies.ts';

conformanceSuite(wranglerDev);
refusedBodiesSuite(wranglerDev);
refusedBodiesSuite(wranglerDevAsDeployed);
afterAll(stopWranglerDev);

describe('the worker under wrangler dev with a [vars] value it cannot use', () => {
  let dev: WranglerDev;
  beforeAll(async () => {
    dev = await WranglerDev.started('bad vars', {
      vars: { LIMITS_MAX_BODY_BYTES: 'lots' },
      env: {},
    });
  });
  afterAll(() => dev?.stop());

  it('answers every request with a 500 that names the variable and what it must be', async () => {
    const response = await dev.fetch('/api/todos');
    expect([response.status, (await response.json()).detail]).toEqual([
      500,
      'The service is misconfigured. [vars] LIMITS_MAX_BODY_BYTES must be an integer of at least 1; it is "lots".',
    ]);
  });

  it("names the request's id as the problem's instance", async () => {
    const response = await dev.fetch('/api/todos', { headers: { 'x-request-id': 'ops-42' } });
    expect([response.headers.get('x-request-id'), (await response.json()).instance]).toEqual([
      'ops-42',
      'ops-42',
    ]);
  });

  it('answers /hello the same way', async () => {
    const response = await dev.fetch('/hello');
    expect(response.status).toBe(500);
  });

  it('logs what is wrong, naming the variable', async () => {
    await (await dev.fetch('/')).arrayBuffer();
    await expect
      .poll(() => dev.output)
      .toContain('[vars] LIMITS_MAX_BODY_BYTES must be an integer of at least 1; it is "lots".');
  });

  it('logs no failure of the runtime besides its own error line', async () => {
    await (await dev.fetch('/api/todos', { method: 'POST', body: '{}' })).arrayBuffer();
    const failures = dev.newFailures().filter((line) => !line.includes('[vars] are wrong'));
    expect(failures).toEqual([]);
  });
});
