import { describe, expect, it, onTestFinished } from 'vitest';
import { startNodeServer } from '../../src/hosts/node/server.ts';
import { nodeConfig, SILENT } from '../support/node-server.ts';

describe('the Node host when its own code fails around the handler', () => {
  const failingRequestLog = (reported: string[]) => ({
    ...SILENT,
    request: () => {
      throw new Error('log sink broke');
    },
    error: (_message: string, fields?: { stack?: string }) => void reported.push(fields!.stack!),
  });

  it("sends the handler's answer: a create it made is not reported as failed", async () => {
    const running = await startNodeServer(nodeConfig(), failingRequestLog([]));
    onTestFinished(() => running.close());
    const response = await fetch(`${running.url}/api/todos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Buy milk' }),
    });
    expect(response.status).toBe(201);
  });

  it('reports the failure to the error log', async () => {
    const reported: string[] = [];
    const running = await startNodeServer(nodeConfig(), failingRequestLog(reported));
    onTestFinished(() => running.close());
    await (await fetch(`${running.url}/api/todos`)).text();
    expect(reported).toEqual([expect.stringContaining('log sink broke')]);
  });
});
