import { describe, expect, it } from 'vitest';
import { DEFAULT_APP_CONFIG } from '../src/config.ts';
import { documentedStatuses, OpenApiCheck, openApiDocument } from './support/openapi-check.ts';
import { createApp } from '../src/app.ts';
import { expectProblem } from './support/api.ts';
import { conformanceSuite } from './conformance/index.ts';
import { inProcessHost, onNamedList } from './support/hosts.ts';

// The statuses this file's own requests showed, so its check below holds whatever else runs.
const statusesSeen = new Set<string>();
conformanceSuite(inProcessHost, statusesSeen);
conformanceSuite(onNamedList(inProcessHost), statusesSeen);

describe('the handler while its host drains', () => {
  const draining = () => {
    const app = createApp();
    app.drain();
    return app;
  };

  it('answers /healthz with 503 as problem+json, as the OpenAPI document says', async () => {
    const url = new URL('http://localhost/healthz');
    const response = await draining().fetch(new Request(url));
    await new OpenApiCheck(DEFAULT_APP_CONFIG, statusesSeen).check('GET', url, undefined, response);
    await expectProblem(response, 503);
  });

  it('still serves the API', async () => {
    const response = await draining().fetch(new Request('http://localhost/api/todos'));
    expect(response.status).toBe(200);
  });
});

describe('the OpenAPI document, after the conformance suite ran here', () => {
  it('lists only statuses that some answer of the suite showed', () => {
    const listed = documentedStatuses(openApiDocument(DEFAULT_APP_CONFIG));
    expect(listed.filter((status) => !statusesSeen.has(status))).toEqual([]);
  });
});
