import { describe, expect, it, onTestFinished } from 'vitest';
import { startNodeServer } from '../../src/hosts/node/server.ts';
import { expectNoLeak } from '../support/leaks.ts';
import { nodeConfig, SILENT } from '../support/node-server.ts';

describe('the Node host when its own code fails around the handler', () => {
  it('answers with a problem+json 500 that tells nothing of the server', async () => {
    const failingLog = {
      ...SILENT,
      request: () => {
        throw new Error('log sink broke at /srv/secret/logger.ts:7');
      },
    };
    const running = await startNodeServer(nodeConfig(), failingLog);
    onTestFinished(() => running.close());
    const response = await fetch(`${running.url}/api/todos`);
    const text = await response.text();
    expect([response.status, response.headers.get('content-type')]).toEqual([
      500,
      'application/problem+json; charset=utf-8',
    ]);
    expectNoLeak(text);
  });
});
