import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { expectProblem } from './support/api.ts';
import { conformanceSuite } from './conformance/index.ts';
import { inProcessHost } from './support/hosts.ts';

conformanceSuite(inProcessHost);

describe('the handler while its host drains', () => {
  const draining = () => {
    const app = createApp();
    app.drain();
    return app;
  };

  it('answers /healthz with 503 as problem+json', async () => {
    const response = await draining().fetch(new Request('http://localhost/healthz'));
    await expectProblem(response, 503);
  });

  it('still serves the API', async () => {
    const response = await draining().fetch(new Request('http://localhost/api/todos'));
    expect(response.status).toBe(200);
  });
});
