import { describe, expect, it, onTestFinished } from 'vitest';
import type { ProblemJson, TodoJson } from '../support/api.ts';
import { serviceAt, useNodeServer } from '../support/node-server.ts';
import { listState } from '../support/api.ts';
import { rawCreate, responsesTo } from '../support/raw-client.ts';
import { firstEvent, StreamReader } from '../support/sse.ts';

const codes = (from: number, to: number) =>
  String.fromCharCode(...Array.from({ length: to - from + 1 }, (_, i) => from + i));

/**
 * Every C0 and C1 control, DEL, and the two Unicode line separators. docs/api.md asks only
 * that a title have one character that is not whitespace (\u0001 is not), and that it be
 * stored exactly as sent: these are accepted, and must come back unchanged.
 */
const CONTROLS = codes(0x00, 0x1f) + '\u007f' + codes(0x80, 0x9f) + '\u2028\u2029';

describe('the Node host and titles of control characters', () => {
  const running = useNodeServer();

  it('stores a title of control characters exactly as sent', async () => {
    const [created] = await responsesTo(
      running().url,
      rawCreate(JSON.stringify({ title: CONTROLS })),
    );
    expect(created?.status).toBe(201);
    const response = await fetch(`${running().url}${created!.headers.location}`);
    expect(((await response.json()) as TodoJson).title).toBe(CONTROLS);
  });

  it('sends a title of control characters intact on the event stream', async () => {
    const abort = new AbortController();
    const stream = new StreamReader(
      await fetch(`${running().url}/api/sse`, { signal: abort.signal }),
      abort,
    );
    onTestFinished(() => stream.close());
    await firstEvent(stream);
    await responsesTo(running().url, rawCreate(JSON.stringify({ title: CONTROLS })));
    const event = await stream.nextEvent();
    expect([event.event, (event.data as TodoJson).title]).toEqual(['created', CONTROLS]);
  });

  it('refuses a control character left raw inside a JSON string with 400, storing nothing', async () => {
    const before = await listState(serviceAt(running().url));
    const [response] = await responsesTo(running().url, rawCreate('{"title":"a\u0001b"}'));
    expect([response?.status, (JSON.parse(response!.body) as ProblemJson).detail]).toEqual([
      400,
      expect.stringContaining('not valid JSON'),
    ]);
    expect(await listState(serviceAt(running().url))).toEqual(before);
  });

  it('refuses a title of only whitespace controls with 400 naming /title', async () => {
    const before = await listState(serviceAt(running().url));
    const [response] = await responsesTo(
      running().url,
      rawCreate(JSON.stringify({ title: '\t\n\u000b\f\r' })),
    );
    const problem = JSON.parse(response!.body) as ProblemJson;
    expect([response?.status, problem.errors?.map((error) => error.pointer)]).toEqual([
      400,
      ['/title'],
    ]);
    expect(await listState(serviceAt(running().url))).toEqual(before);
  });
});
