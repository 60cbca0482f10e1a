import { describe, expect, it } from 'vitest';
import { useE2e, type E2e } from './support/e2e.ts';
import { isStreamProblem, StreamRequests, streamsServed } from './support/streams.ts';
import { eventually, type TodoPage } from './support/todo-page.ts';

/** Within a second, as a user would call "at once". */
const AT_ONCE_MS = 1000;

/** Every tab shows `titles`, each within `timeout`. */
function allShow(tabs: readonly TodoPage[], titles: string[], timeout = AT_ONCE_MS) {
  return Promise.all(tabs.map((tab) => eventually(() => tab.titles(), timeout).toEqual(titles)));
}

/** What a tab has applied: with no new snapshot, `changes` grows by one for each change made. */
async function applied(tab: TodoPage) {
  const read = (name: string) => tab.connection.getAttribute(`data-${name}`);
  return {
    snapshots: Number(await read('snapshots')),
    changes: Number(await read('changes')),
    lastEventId: await read('last-event-id'),
  };
}

/** Starts noting, in the tab, when each new event id shows (the page shares the test's clock). */
async function noteArrivals(tab: TodoPage): Promise<void> {
  await tab.connection.evaluate((status) => {
    const seen: [string, number][] = [];
    Object.assign(window, { arrivals: seen });
    new MutationObserver(() => {
      const id = status.getAttribute('data-last-event-id') ?? '';
      if (seen.at(-1)?.[0] !== id) seen.push([id, Date.now()]);
    }).observe(status, { attributeFilter: ['data-last-event-id'] });
  });
}

interface Change {
  readonly id: string;
  readonly sentAt: number;
}

/** When the tab first showed a change sent at `since` or later; undefined while none. */
async function firstShownAfter(tab: TodoPage, made: readonly Change[], since: number) {
  const later = new Set(made.filter((change) => change.sentAt >= since).map(({ id }) => id));
  const seen = await tab.page.evaluate(
    () => (window as unknown as { arrivals: [string, number][] }).arrivals,
  );
  return seen.find(([id]) => later.has(id))?.[1];
}

/** Renames one item through the API, change after change, until stopped. */
function keepChanging(e2e: E2e) {
  const made: Change[] = [];
  let stopped = false;
  const running = (async () => {
    const created = await e2e.service.api('/api/todos', 'POST', { title: 'Change 0' });
    const { id } = (await created.json()) as { id: string };
    made.push({ id: versionHeaderOf(created), sentAt: 0 });
    for (let n = 1; !stopped; n += 1) {
      const sentAt = Date.now();
      const body = { title: `Change ${n}`, completed: n % 2 === 0 };
      const response = await e2e.service.api(`/api/todos/${id}`, 'PUT', body);
      expect(response.status).toBe(200);
      made.push({ id: versionHeaderOf(response), sentAt });
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  })();
  return {
    made,
    stop: async () => {
      stopped = true;
      await running;
      return made;
    },
  };
}

function versionHeaderOf(response: Response): string {
  return (response.headers.get('etag') ?? '').replaceAll('"', '');
}

describe('every tab, live on one shared stream', () => {
  const e2e = useE2e();

  /** Opens `count` tabs one after another, each loaded and live before the next. */
  async function openTabs(count: number, streams = new StreamRequests()) {
    const tabs: TodoPage[] = [];
    for (let i = 0; i < count; i += 1) {
      tabs.push(await streams.watch(await e2e().newTab()).open(e2e().service.url));
    }
    return tabs;
  }

  it('loads 12 tabs on one stream, and shows a change in all of them within a second', async ({
    annotate,
  }) => {
    const tabs = await openTabs(12);
    await e2e().service.api('/api/todos', 'POST', { title: 'From the API' });
    await allShow(tabs, ['From the API']);

    const last = tabs.at(-1)!;
    await last.page.bringToFront();
    await last.add('From the last tab');
    await allShow(tabs, ['From the API', 'From the last tab']);
    // The log is written in batches: once it shows the last tab's POST, it shows every stream
    // opened before.
    const posts = () =>
      e2e()
        .service.requests()
        .filter(({ method }) => method === 'POST');
    await eventually(() => posts().length).toBe(2);
    expect(streamsServed(e2e().service)).toBe(1);
    await annotate(`tabs: 12, /api/sse connections served: ${streamsServed(e2e().service)}`);
  });

  it('hands the stream over when its tab closes, losing and repeating no change', async ({
    annotate,
  }) => {
    const streams = new StreamRequests();
    const tabs = await openTabs(6, streams);
    await e2e().service.api('/api/todos', 'POST', { title: 'Before' });
    await allShow(tabs, ['Before']);
    const before = new Map(
      await Promise.all(tabs.map(async (tab) => [tab, await applied(tab)] as const)),
    );
    // A closed tab's stream is cut off: that request, and only it, fails.
    const origin = new URL(e2e().service.url).origin;
    e2e().problems.allow(
      (problem) => isStreamProblem(origin, problem) && problem.text === 'net::ERR_ABORTED',
    );

    const changes = keepChanging(e2e());
    const handovers: number[] = [];
    for (let closing = 0; closing < 3; closing += 1) {
      // A few changes between handovers, and changes go on through each.
      const madeBefore = changes.made.length;
      await eventually(() => changes.made.length).toBeGreaterThan(madeBefore + 2);
      const holder = streams.holder()!;
      const open = tabs.filter((tab) => !tab.page.isClosed() && tab !== holder);
      await noteArrivals(open[0]!);
      const requested = streams.count;
      await holder.page.close();
      const closedAt = Date.now();
      await eventually(() => streams.count, 5000).toBeGreaterThan(requested);
      expect(open).toContain(streams.holder());
      // A change sent after the holder was gone can only have come through the next one.
      let shownAt: number | undefined;
      await eventually(async () => {
        shownAt = await firstShownAfter(open[0]!, changes.made, closedAt);
        return shownAt;
      }, 5000).toBeDefined();
      handovers.push(shownAt! - closedAt);
    }
    const made = await changes.stop();
    const lastId = made.at(-1)!.id;
    const left = tabs.filter((tab) => !tab.page.isClosed());
    expect(left).toHaveLength(3);
    await Promise.all(left.map((tab) => eventually(() => tab.lastEventId(), 5000).toBe(lastId)));
    for (const tab of left) {
      const { snapshots, changes: count } = before.get(tab)!;
      expect(await applied(tab)).toEqual({
        snapshots,
        changes: count + made.length,
        lastEventId: lastId,
      });
    }
    const title = `Change ${made.length - 1}`;
    await allShow(left, ['Before', title]);
    await annotate(
      `changes made during 3 handovers: ${made.length}; ` +
        `holder closed → first later change shown in another tab: ${handovers.join(', ')} ms`,
    );

    // A tab opened now loads at once, on the stream already open, and is live.
    const joined = await streams.watch(await e2e().newTab()).open(e2e().service.url);
    expect(await joined.titles()).toEqual(['Before', title]);
    await joined.page.bringToFront();
    await joined.add('From the tab that joined');
    await allShow([...left, joined], ['Before', title, 'From the tab that joined']);
    expect(streams.holder()).not.toBe(joined);
    await eventually(() => streamsServed(e2e().service)).toBe(4);
  });

  // Headless Chromium does not freeze a page through CDP (Page.setWebLifecycleState leaves
  // its timers running and fires no event), so the holder is sent the lifecycle events that
  // a freeze and a resume fire.
  it('hands the stream over when its tab says it freezes, and catches up on resume', async () => {
    const streams = new StreamRequests();
    const tabs = await openTabs(3, streams);
    const holder = streams.holder()!;
    const others = tabs.filter((tab) => tab !== holder);
    const origin = new URL(e2e().service.url).origin;
    e2e().problems.allow(
      (problem) => isStreamProblem(origin, problem) && problem.text === 'net::ERR_ABORTED',
    );
    const lifecycle = (type: string) =>
      holder.page.evaluate((type) => document.dispatchEvent(new Event(type)), type);

    await lifecycle('freeze');
    await eventually(() => streams.holder(), 5000).not.toBe(holder);
    expect(others).toContain(streams.holder());
    await e2e().service.api('/api/todos', 'POST', { title: 'Made while frozen' });
    await allShow(tabs, ['Made while frozen']);

    await lifecycle('resume');
    await e2e().service.api('/api/todos', 'POST', { title: 'Made after' });
    await allShow(tabs, ['Made while frozen', 'Made after']);
    const ids = await Promise.all(tabs.map((tab) => tab.lastEventId()));
    expect(new Set(ids).size).toBe(1);
    expect(streams.holder()).not.toBe(holder);

    // Back in the queue for the stream: when the other tabs close, it takes the stream over.
    // The tab waiting ahead of it closes first, so no stream opens in between.
    const next = streams.holder()!;
    for (const tab of others.filter((tab) => tab !== next)) await tab.page.close();
    await next.page.close();
    await eventually(() => streams.holder(), 5000).toBe(holder);
    await e2e().service.api('/api/todos', 'POST', { title: 'Made last' });
    await allShow([holder], ['Made while frozen', 'Made after', 'Made last']);
    await eventually(() => streamsServed(e2e().service)).toBe(3);
  });

  it('shows the new list in every tab after a restart, and no stale error', async () => {
    const streams = new StreamRequests();
    const tabs = await openTabs(4, streams);
    await tabs[0]!.add('Lost with the old run');
    await allShow(tabs, ['Lost with the old run']);
    const origin = new URL(e2e().service.url).origin;
    e2e().problems.allow((problem) => isStreamProblem(origin, problem));
    const follower = tabs.find((tab) => tab !== streams.holder())!;

    await e2e().restartService(async () => {
      for (const tab of tabs) {
        await eventually(() => tab.connection.textContent()).toBe('Reconnecting…');
      }
      // An add while the service is down is kept, and shown as not sent yet.
      await follower.page.bringToFront();
      await follower.newTodo.fill('Tried while down');
      await follower.newTodo.press('Enter');
      await eventually(() => follower.page.locator('.todo-list li.pending').count()).toBe(1);
    });

    await allShow(tabs, ['Tried while down'], 10_000);
    for (const tab of tabs) {
      await eventually(() => tab.connection.getAttribute('data-state')).toBe('open');
      expect(await tab.connection.textContent()).toBe('');
      expect(await tab.problem.textContent()).toBe('');
    }
    await follower.add('First of the new run');
    await allShow(tabs, ['Tried while down', 'First of the new run']);
  });
});
