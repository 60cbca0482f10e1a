import type { Page, Request } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { LAST_EVENT_ID_PARAM } from '../../src/model/events.ts';
import { DEFAULT_LIST_PATHS } from '../../src/model/resources.ts';

const EVENTS_PATH = DEFAULT_LIST_PATHS.sse;
import { CuttableProxy } from './support/cuttable-proxy.ts';
import { useE2e } from './support/e2e.ts';
import { isStreamProblem, streamsServed } from './support/streams.ts';
import { eventually, type TodoPage } from './support/todo-page.ts';

/** Within a second, as a user would call "at once". */
const AT_ONCE_MS = 1000;

/** Every request the page makes to the event stream, in order. */
function streamRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === EVENTS_PATH) requests.push(request);
  });
  return requests;
}

describe('the page, live', () => {
  const e2e = useE2e();

  it('shows every change made in one tab in another within a second, without reloading', async () => {
    const [first, second] = [await e2e().openTodos(), await e2e().openTodos()];
    const loads: string[] = [];
    for (const page of [first.page, second.page]) page.on('load', () => loads.push(page.url()));

    // The tab acted in comes to the front, as it would for a user; the other stays behind.
    await first.page.bringToFront();
    await first.newTodo.fill('Made in the first tab');
    await first.newTodo.press('Enter');
    await eventually(() => second.titles(), AT_ONCE_MS).toEqual(['Made in the first tab']);

    await second.page.bringToFront();
    await second.add('Made in the second tab');
    await eventually(() => first.titles(), AT_ONCE_MS).toEqual([
      'Made in the first tab',
      'Made in the second tab',
    ]);

    await second.toggle('Made in the first tab');
    await eventually(() => first.completedStates(), AT_ONCE_MS).toEqual([true, false]);

    await first.page.bringToFront();
    const edit = await first.edit('Made in the second tab');
    await edit.fill('Edited in the first tab');
    await edit.press('Enter');
    await eventually(() => second.titles(), AT_ONCE_MS).toEqual([
      'Made in the first tab',
      'Edited in the first tab',
    ]);

    await second.page.bringToFront();
    await second.clearCompleted.click();
    await eventually(() => first.titles(), AT_ONCE_MS).toEqual(['Edited in the first tab']);

    await first.page.bringToFront();
    await first.destroy('Edited in the first tab');
    await eventually(() => second.main.isHidden(), AT_ONCE_MS).toBe(true);
    expect(loads).toEqual([]);
  });

  it('shows a change made through the API in an open page within a second', async () => {
    const todos = await e2e().openTodos();
    const { service } = e2e();
    const created = await (await service.api('/api/todos', 'POST', { title: 'From curl' })).json();
    await eventually(() => todos.titles(), AT_ONCE_MS).toEqual(['From curl']);

    await service.api(`/api/todos/${created.id}`, 'PUT', { title: 'From curl', completed: true });
    await eventually(() => todos.completedStates(), AT_ONCE_MS).toEqual([true]);

    await service.api(`/api/todos/${created.id}`, 'DELETE');
    await eventually(() => todos.titles(), AT_ONCE_MS).toEqual([]);
  });

  it('keeps the items across a reload', async () => {
    const todos = await e2e().newTab();
    const streams = streamRequests(todos.page);
    await todos.open(e2e().service.url);
    await todos.add('Survives', 'Also survives');
    // The event can beat the PUT's own response; a reload must not cut that response off.
    const put = todos.page.waitForResponse((response) => response.request().method() === 'PUT');
    await todos.toggle('Also survives');
    await (await put).finished();
    await eventually(() => todos.completedStates()).toEqual([false, true]);
    allowReloadToEndStream(streams);

    await todos.page.reload();
    await todos.live();
    expect(await todos.titles()).toEqual(['Survives', 'Also survives']);
    expect(await todos.completedStates()).toEqual([false, true]);
  });

  it('keeps the filter across a reload', async () => {
    const todos = await e2e().newTab();
    const streams = streamRequests(todos.page);
    await todos.open(`${e2e().service.url}/#/completed`);
    await e2e().service.api('/api/todos', 'POST', { title: 'Active one' });
    await e2e().service.api('/api/todos', 'POST', { title: 'Done one', completed: true });
    await eventually(() => todos.titles()).toEqual(['Done one']);
    allowReloadToEndStream(streams);

    await todos.page.reload();
    await todos.live();
    expect(await todos.selectedFilter.getAttribute('href')).toBe('#/completed');
    expect(await todos.titles()).toEqual(['Done one']);
  });

  /** A reload cuts off the open event stream: that one request, and only it, may fail. */
  function allowReloadToEndStream(streams: Request[]) {
    const open = streams.at(-1);
    expect(open).toBeDefined();
    e2e().problems.allow(
      (problem) =>
        problem.kind === 'failed request' &&
        problem.url === open!.url() &&
        problem.text === 'net::ERR_ABORTED',
    );
  }

  it('reconnects after the server restarts and shows the new, empty list', async () => {
    const todos = await e2e().newTab();
    const streams = streamRequests(todos.page);
    await todos.open(e2e().service.url);
    await todos.add('Lost with the old run');
    const oldRunId = await todos.lastEventId();
    const origin = new URL(e2e().service.url).origin;
    // While no server listens, a reconnect may be refused: that, on the stream, is expected.
    e2e().problems.allow((problem) => isStreamProblem(origin, problem));

    await e2e().restartService(async () => {
      await eventually(() => todos.connection.getAttribute('data-state')).toBe('reconnecting');
      expect(await todos.connection.textContent()).toBe('Reconnecting…');
      expect(await todos.connection.getAttribute('role')).toBe('status');
    });

    await eventually(() => todos.titles(), 10_000).toEqual([]);
    expect(await todos.main.isHidden()).toBe(true);
    await eventually(() => todos.connection.getAttribute('data-state')).toBe('open');
    expect(await todos.connection.textContent()).toBe('');
    expect(await todos.snapshots()).toBe(2);
    // Every retry asked to resume from the old run's id; the new run did not know it and sent
    // the list. EventSource's own retry sends the header; if the closing server refused a retry
    // with 503, the page opened a new stream with the query instead. Either is a correct resume.
    const retries = streams.slice(1);
    expect(retries.length).toBeGreaterThan(0);
    expect(await Promise.all(retries.map(resumeIdSent))).toEqual(retries.map(() => oldRunId));
    expect((await todos.lastEventId()).split('.')[0]).not.toBe(oldRunId.split('.')[0]);

    await todos.add('First of the new run');
    expect(await todos.titles()).toEqual(['First of the new run']);
  });

  async function resumeIdSent(stream: Request) {
    return (
      (await stream.headerValue('last-event-id')) ??
      new URL(stream.url()).searchParams.get(LAST_EVENT_ID_PARAM)
    );
  }

  describe('behind a network that drops', () => {
    let proxy: CuttableProxy | undefined;
    afterEach(async () => {
      await proxy?.close();
      proxy = undefined;
    });

    /** The page, loaded through the proxy, with one item and the id of the last event. */
    async function openBehindProxy() {
      proxy = await CuttableProxy.start(e2e().service.url);
      const origin = proxy.url;
      const todos = await e2e().newTab();
      const streams = streamRequests(todos.page);
      await todos.open(`${origin}/`);
      await e2e().service.api('/api/todos', 'POST', { title: 'Before the drop' });
      await eventually(() => todos.titles()).toEqual(['Before the drop']);
      e2e().problems.allow((problem) => isStreamProblem(origin, problem));
      const dropped = () =>
        e2e()
          .problems.all()
          .filter((problem) => isStreamProblem(origin, problem));
      return { todos, streams, dropped, lastEventId: await todos.lastEventId() };
    }

    async function waitUntilDown(todos: TodoPage) {
      await eventually(() => todos.connection.getAttribute('data-state')).toBe('reconnecting');
      expect(await todos.connection.textContent()).toBe('Reconnecting…');
    }

    it('resumes after a drop without a snapshot and without losing a change', async () => {
      const { todos, streams, dropped, lastEventId } = await openBehindProxy();

      proxy!.cut('reset');
      await waitUntilDown(todos);
      await eventually(() => dropped().map((problem) => problem.kind)).toContain('failed request');
      await e2e().service.api('/api/todos', 'POST', { title: 'Made during the drop' });
      expect(await todos.titles()).toEqual(['Before the drop']);

      proxy!.restore();
      await eventually(() => todos.titles(), 10_000).toEqual([
        'Before the drop',
        'Made during the drop',
      ]);
      await eventually(() => todos.connection.getAttribute('data-state')).toBe('open');
      expect(await todos.connection.textContent()).toBe('');
      // One snapshot, at the first load: the resumed stream sent only the missed event.
      expect(await todos.snapshots()).toBe(1);
      const resumed = streams.at(-1)!;
      expect(streams.length).toBeGreaterThan(1);
      expect(await resumed.headerValue('last-event-id')).toBe(lastEventId);
      expect(new URL(resumed.url()).search).toBe('');
      // The first stream and the resumed one: no attempt during the drop reached the service.
      await eventually(() => streamsServed(e2e().service)).toBe(2);
    });

    it('opens a new stream with ?lastEventId= after one is refused, and loses nothing', async () => {
      const { todos, streams, lastEventId } = await openBehindProxy();
      const refused = new Promise<void>((resolve) =>
        todos.page.on('response', (response) => {
          if (response.url().endsWith(EVENTS_PATH) && response.status() === 503) resolve();
        }),
      );

      proxy!.cut('unavailable');
      await waitUntilDown(todos);
      // EventSource gives up on a 503 for good; the page must open a new one itself.
      await refused;
      await e2e().service.api('/api/todos', 'POST', { title: 'Made while refused' });

      proxy!.restore();
      await eventually(() => todos.titles(), 15_000).toEqual([
        'Before the drop',
        'Made while refused',
      ]);
      await eventually(() => todos.connection.getAttribute('data-state')).toBe('open');
      expect(await todos.connection.textContent()).toBe('');
      expect(await todos.snapshots()).toBe(1);
      const reopened = streams.at(-1)!;
      expect(new URL(reopened.url()).searchParams.get('lastEventId')).toBe(lastEventId);
      expect(await reopened.headerValue('last-event-id')).toBeNull();
      await eventually(() => streamsServed(e2e().service)).toBe(2);
    });
  });
});
