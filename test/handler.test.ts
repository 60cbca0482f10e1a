import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createApp, type App } from '../src/app.ts';
import { DEFAULT_APP_CONFIG } from '../src/config.ts';
import { DROPPED_CLIENT_GRACE_MS } from '../src/live/event-channel.ts';
import { localLists, memoryListStores } from '../src/lists/local-lists.ts';
import type { Change } from '../src/store/changes.ts';
import { ListStore } from '../src/store/list-store.ts';
import { BARE_STORE_OPTIONS } from './support/hosts.ts';

/** A create whose body is `body`, streamed as a client without Content-Length sends it. */
function streamedCreate(body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return new Request('http://localhost/api/todos', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
}

/** A stream that sends `text` in two chunks and ends. */
function streamOf(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const half = Math.floor(bytes.byteLength / 2);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.subarray(0, half));
      controller.enqueue(bytes.subarray(half));
      controller.close();
    },
  });
}

/** A create whose body is `body`, with `declaredLength` as its Content-Length, true or not. */
function declaredCreate(body: string, declaredLength: number) {
  return new Request('http://localhost/api/todos', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(declaredLength) },
    body,
  });
}

// A host whose HTTP parser frames bodies by their Content-Length (Node) lets the handler read a
// declared body whole; every limit must hold on that path as on the streamed one.
describe.each([
  {
    contentLengthIsExact: false,
    framing: 'a host that passes bodies on as streams',
    // As a chunked upload arrives: no Content-Length, so only counting the chunks can tell.
    create: (body: string) => streamedCreate(streamOf(body)),
  },
  {
    contentLengthIsExact: true,
    framing: 'a host that frames bodies by their Content-Length',
    // As such a host delivers a body: whole, and exactly as long as it declares.
    create: (body: string) => declaredCreate(body, new TextEncoder().encode(body).byteLength),
  },
])('the handler reading a body, on $framing', ({ contentLengthIsExact, create }) => {
  const app = () => createApp({ host: { contentLengthIsExact } });

  it('reads no more than the limit of a body that never ends', async () => {
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = new Uint8Array(1024).fill(0x20);
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const response = await app().fetch(streamedCreate(endless));
    expect(response.status).toBe(413);
    // The stream may run a few chunks ahead of the reader, never far.
    expect(sent).toBeLessThan(DEFAULT_APP_CONFIG.limits.maxBodyBytes + 8 * 1024);
  });

  it('stores a body within the limit', async () => {
    const response = await app().fetch(create(JSON.stringify({ title: 'Buy milk' })));
    expect([response.status, (await response.json()).title]).toEqual([201, 'Buy milk']);
  });

  it('refuses a declared Content-Length over the limit without reading the body', async () => {
    let pulled = false;
    // With no high-water mark, the stream is pulled only when someone reads it.
    const body = new ReadableStream<Uint8Array>(
      {
        pull() {
          pulled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const response = await app().fetch(streamedCreate(body, { 'content-length': '999999' }));
    expect(response.status).toBe(413);
    expect(pulled).toBe(false);
  });

  it('refuses a body over the limit that declares itself small, and stores nothing', async () => {
    const service = app();
    const body = JSON.stringify({ title: 'x'.repeat(20000) });
    const response = await service.fetch(declaredCreate(body, 10));
    expect(response.status).toBe(413);
    expect(await (await service.fetch(new Request('http://localhost/api/todos'))).json()).toEqual(
      [],
    );
  });
});

describe('the handler serving public/', () => {
  /** An asset source that would serve anything, and remembers what it was asked for. */
  function recordingAssets() {
    const asked: string[] = [];
    const assets = {
      read: async (path: string) => {
        asked.push(path);
        return new TextEncoder().encode('secret');
      },
    };
    return { asked, app: createApp({ host: { assets } }) };
  }

  it.each([
    '/..%2fpackage.json',
    '/..%5cpackage.json',
    '/x/..%2f..%2fsecret',
    '/.env',
    '/.git/config',
    '/a/.hidden/b.js',
    '/index.html%00.css',
    '/x//y',
    '/%E0%A4%A',
  ])('never asks the host for %s', async (path) => {
    const { asked, app } = recordingAssets();
    const response = await app.fetch(new Request(`http://localhost${path}`));
    expect([response.status, asked]).toEqual([404, []]);
  });

  it('asks the host for a plain file by its decoded path', async () => {
    const { asked, app } = recordingAssets();
    await app.fetch(new Request('http://localhost/css/my%20app.css'));
    expect(asked).toEqual(['css/my app.css']);
  });
});

describe('the handler reading a body that fails', () => {
  it('answers a body stream that errors with 400 and reports nothing', async () => {
    const reported: unknown[] = [];
    const app = createApp({ host: { reportError: (error) => reported.push(error) } });
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"title":'));
        controller.error(new Error('connection reset'));
      },
    });
    const response = await app.fetch(streamedCreate(broken));
    expect([response.status, reported]).toEqual([400, []]);
  });
});

const create = (app: App, title = 'a') =>
  app.fetch(
    new Request('http://localhost/api/todos', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    }),
  );

/** An app whose default list is kept in `store`. */
const appOn = (store: ListStore) =>
  createApp({
    lists: localLists({ stores: { ...memoryListStores, openDefault: () => store }, maxLists: 1 }),
  });

describe('the handler keeping Idempotency-Keys for limits.idempotencyKeyHours', () => {
  const HOUR_MS = 3_600_000;
  const create = (app: App) =>
    app.fetch(
      new Request('http://localhost/api/todos', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': '"k"' },
        body: '{"title":"Buy milk"}',
      }),
    );

  /** The handler keeping keys for an hour, on a clock the test moves. */
  function appKeepingKeysAnHour(): App {
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const limits = { ...DEFAULT_APP_CONFIG.limits, idempotencyKeyHours: 1 };
    return createApp({ config: { ...DEFAULT_APP_CONFIG, limits } });
  }

  it('answers a retry as the first until the window ends', async () => {
    const app = appKeepingKeysAnHour();
    const first = (await create(app)).headers.get('location');
    vi.setSystemTime(Date.now() + HOUR_MS - 1);
    const retry = await create(app);
    expect([retry.status, retry.headers.get('location')]).toEqual([201, first]);
  });

  it('takes the key as new once the window has passed', async () => {
    const app = appKeepingKeysAnHour();
    const first = (await create(app)).headers.get('location');
    vi.setSystemTime(Date.now() + HOUR_MS);
    const again = await create(app);
    expect([again.status, again.headers.get('location') === first]).toEqual([201, false]);
  });
});

describe('the store announcing changes', () => {
  it('stops announcing to a subscriber that unsubscribed', async () => {
    const store = new ListStore({ ...BARE_STORE_OPTIONS, reportError: () => {} });
    const seen: Change[] = [];
    const unsubscribe = store.subscribe((change) => seen.push(change));
    unsubscribe();
    await create(appOn(store));
    expect(seen).toEqual([]);
  });

  it('keeps a change and the other subscribers when one subscriber throws', async () => {
    const reported: unknown[] = [];
    const store = new ListStore({
      ...BARE_STORE_OPTIONS,
      reportError: (error) => reported.push(error),
    });
    const seen: Change[] = [];
    store.subscribe(() => {
      throw new Error('listener bug');
    });
    store.subscribe((change) => seen.push(change));
    const response = await create(appOn(store));
    expect([response.status, store.size, seen.length, reported.length]).toEqual([201, 1, 1, 1]);
  });
});

describe('the handler streaming events', () => {
  const openEvents = (app: App) => app.fetch(new Request('http://localhost/api/sse'));

  it('forgets a client whose stream is cancelled, with no abort signal', async () => {
    const app = createApp();
    const response = await openEvents(app);
    await response.body!.cancel();
    await expect
      .poll(() => [app.events.openCount, app.events.heartbeatRunning])
      .toEqual([0, false]);
  });

  it('leaves no timer running once every client has left', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    const app = createApp();
    const streams = await Promise.all(Array.from({ length: 300 }, () => openEvents(app)));
    // A heartbeat is due: its one interval runs for all the clients.
    vi.advanceTimersByTime(DEFAULT_APP_CONFIG.sse.heartbeatSeconds * 1000);
    expect(vi.getTimerCount()).toBe(1);
    await Promise.all(streams.map((response) => response.body!.cancel()));
    // Not expect.poll: it would move the fake clock, and run out a forgotten timeout.
    await new Promise((resolve) => setImmediate(resolve));
    expect([app.events.openCount, vi.getTimerCount()]).toEqual([0, 0]);
  });

  it('refuses new streams with 503 and Retry-After once closed for shutdown', async () => {
    const app = createApp();
    app.close();
    const response = await openEvents(app);
    expect([response.status, response.headers.get('retry-after')]).toEqual([503, '3']);
  });

  it('drops a client that stops reading once 1 MiB waits for it', async () => {
    const app = createApp();
    await openEvents(app);
    for (let i = 0; i < 1200 && app.events.openCount > 0; i += 1) {
      await create(app, 'x'.repeat(1000));
    }
    expect(app.events.openCount).toBe(0);
  });

  it('cuts the stream of a dropped client that has not read again after 10 s', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    const app = createApp();
    const response = await openEvents(app);
    for (let i = 0; i < 1200 && app.events.openCount > 0; i += 1) {
      await create(app, 'x'.repeat(1000));
    }
    vi.advanceTimersByTime(DROPPED_CLIENT_GRACE_MS);
    await expect(response.body!.getReader().read()).rejects.toThrow('The client stopped reading.');
  });

  it('does not count a large snapshot against the client that has yet to read it', async () => {
    const app = createApp();
    for (let i = 0; i < 1500; i += 1) await create(app, 'x'.repeat(1000));
    await openEvents(app);
    await create(app);
    expect(app.events.openCount).toBe(1);
  });
});
