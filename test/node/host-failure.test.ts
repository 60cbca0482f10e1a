import { pino } from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startNodeServer } from '../../src/hosts/node/server.ts';
import type { LogLine } from '../support/log-lines.ts';
import { nodeConfig } from '../support/node-server.ts';

describe('the Node host when its own code fails around the handler', () => {
  /** A log whose request lines fail to be written; its error lines are kept in `reported`. */
  const failingRequestLog = (reported: LogLine[]) =>
    pino(
      {},
      {
        write(text: string) {
          const line = JSON.parse(text) as LogLine;
          if (line.msg === 'request') throw new Error('log sink broke');
          reported.push(line);
        },
      },
    );

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

  it('reports the failure to the error log, with the id of the request it answered', async () => {
    const reported: LogLine[] = [];
    const running = await startNodeServer(nodeConfig(), failingRequestLog(reported));
    onTestFinished(() => running.close());
    const response = await fetch(`${running.url}/api/todos`);
    await response.text();
    expect(reported).toEqual([
      expect.objectContaining({
        level: 50,
        msg: 'unexpected error',
        reqId: response.headers.get('x-request-id'),
        err: expect.objectContaining({ message: 'log sink broke' }),
      }),
    ]);
  });
});
