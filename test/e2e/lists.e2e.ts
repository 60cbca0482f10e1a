import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ListInfo } from '../../src/model/resources.ts';
import {
  DEFAULT_LIST_PATHS,
  LISTS_PATH,
  listPageOf,
  listPathOf,
  namedListPaths,
} from '../../src/model/resources.ts';
import { RECONNECT_DELAY_MS } from '../../src/model/events.ts';
import type { BrowserProblem } from './support/browser-problems.ts';
import { useE2e } from './support/e2e.ts';
import { isStreamProblem, streamsServed } from './support/streams.ts';
import { eventually, TodoPage } from './support/todo-page.ts';

/** Within a second, as a user would call "at once". */
const AT_ONCE_MS = 1000;
/** base64url, as long as an id made on Node, and never made by the service. */
const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

/** Every request a tab makes to `path`, counted as it makes them. */
function requestsTo(page: Page, path: string): { readonly count: number } {
  const counter = { count: 0 };
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) counter.count += 1;
  });
  return counter;
}

describe('the page of a named list', () => {
  const e2e = useE2e();

  async function makeList(title?: string): Promise<string> {
    const response = await e2e().service.api(
      LISTS_PATH,
      'POST',
      title === undefined ? undefined : { title },
    );
    expect(response.status).toBe(201);
    return ((await response.json()) as ListInfo).id;
  }

  /** The titles of the items the service holds at `todosPath`. */
  async function itemsAt(todosPath: string): Promise<string[]> {
    const items = (await (await e2e().service.api(todosPath)).json()) as { title: string }[];
    return items.map((item) => item.title);
  }

  const openList = (id: string) => e2e().openTodos(listPageOf(id));

  /** A tab shows the message of a list that is gone, and nothing to change. */
  async function showsGone(tab: TodoPage): Promise<void> {
    await eventually(() => tab.gone.isVisible()).toBe(true);
    expect(await tab.gone.textContent()).toContain('This list was deleted, or never existed.');
    expect(await tab.gone.getByRole('link').getAttribute('href')).toBe('/');
    expect(await tab.connection.getAttribute('data-state')).toBe('gone');
    expect(await tab.connection.textContent()).toBe('');
    for (const part of [tab.newTodo, tab.main, tab.footer, tab.listTitle, tab.deleteList]) {
      expect(await part.isHidden()).toBe(true);
    }
    expect(await tab.newTodo.isDisabled()).toBe(true);
    expect(await tab.newList.isVisible()).toBe(true);
  }

  /**
   * An open event stream at `path` may be cut off: by leaving the page, or by the page closing
   * it on `list-deleted` before the end of the response arrives.
   */
  function allowStreamCut(path: string): void {
    const origin = new URL(e2e().service.url).origin;
    e2e().problems.allow(
      (problem) =>
        problem.kind === 'failed request' &&
        problem.text === 'net::ERR_ABORTED' &&
        isStreamProblem(origin, problem, path),
    );
  }

  it('keeps two lists in two tabs apart, and apart from the default list', async () => {
    const [a, b] = [await makeList('Home'), await makeList('Work')];
    const homeTabs = [await openList(a), await openList(a)];
    const workTab = await openList(b);
    const defaultTab = await e2e().openTodos('/');

    await homeTabs[0]!.add('Fix the tap');
    await workTab.add('Send the report');
    await defaultTab.add('In the default list');
    await eventually(() => homeTabs[1]!.titles(), AT_ONCE_MS).toEqual(['Fix the tap']);

    expect(await homeTabs[0]!.titles()).toEqual(['Fix the tap']);
    expect(await workTab.titles()).toEqual(['Send the report']);
    expect(await defaultTab.titles()).toEqual(['In the default list']);
    expect(await itemsAt(namedListPaths(a).todos)).toEqual(['Fix the tap']);
    expect(await itemsAt(namedListPaths(b).todos)).toEqual(['Send the report']);
    expect(await itemsAt(DEFAULT_LIST_PATHS.todos)).toEqual(['In the default list']);
    // One change each: no tab applied an event of another list.
    for (const tab of [...homeTabs, workTab, defaultTab]) {
      expect(await tab.connection.getAttribute('data-changes')).toBe('1');
    }
    await eventually(() => homeTabs[1]!.listTitle.inputValue()).toBe('Home');
    await eventually(() => workTab.listTitle.inputValue()).toBe('Work');
    expect(await workTab.page.title()).toBe('Work · todos');
    expect(await defaultTab.listTitle.isHidden()).toBe(true);
    // A stream for each list, shared by the tabs that show it.
    const { service } = e2e();
    await eventually(() => streamsServed(service, namedListPaths(a).sse)).toBe(1);
    expect(streamsServed(service, namedListPaths(b).sse)).toBe(1);
    expect(streamsServed(service)).toBe(1);
  });

  it('works at the link POST /api/lists gave, in two browsers at once', async () => {
    const response = await e2e().service.api(LISTS_PATH, 'POST', { title: 'Shared' });
    const link = /^<([^>]+)>/.exec(response.headers.get('link') ?? '')?.[1];
    expect(link).toBe(listPageOf(((await response.json()) as ListInfo).id));
    // A second browser shares no lock, channel or connection with the first.
    const other = await e2e().browser.newContext({ viewport: { width: 800, height: 600 } });
    try {
      const otherPage = await other.newPage();
      e2e().problems.watch(otherPage);
      const [first, second] = [
        await e2e().openTodos(link!),
        await new TodoPage(otherPage).open(new URL(link!, e2e().service.url).href),
      ];
      await first.add('From the first browser');
      await eventually(() => second.titles(), AT_ONCE_MS).toEqual(['From the first browser']);
      await second.add('From the second');
      await eventually(() => first.titles(), AT_ONCE_MS).toEqual([
        'From the first browser',
        'From the second',
      ]);
      expect(await itemsAt(DEFAULT_LIST_PATHS.todos)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('makes a new, empty list with New list and goes to it', async () => {
    const tab = await e2e().openTodos('/');
    expect(await tab.newList.isVisible()).toBe(true);
    for (const control of [tab.listTitle, tab.copyLink, tab.deleteList]) {
      expect(await control.isHidden()).toBe(true);
    }
    await tab.add('Stays in the default list');
    allowStreamCut(DEFAULT_LIST_PATHS.sse);

    await tab.newList.click();
    await tab.page.waitForURL(/\/lists\/[A-Za-z0-9_-]{22,}$/);
    await tab.live();
    const id = new URL(tab.page.url()).pathname.split('/').at(-1)!;
    expect(await tab.titles()).toEqual([]);
    await eventually(() => tab.listTitle.isVisible()).toBe(true);
    expect(await tab.listTitle.inputValue()).toBe('');
    expect(await tab.listTitle.getAttribute('placeholder')).toBe('Untitled list');
    expect(await tab.deleteList.isVisible()).toBe(true);

    await tab.add('First of the new list', 'Second');
    expect(await itemsAt(namedListPaths(id).todos)).toEqual(['First of the new list', 'Second']);
    expect(await itemsAt(DEFAULT_LIST_PATHS.todos)).toEqual(['Stays in the default list']);
    await tab.rename('  Errands ');
    const info = async () => (await (await e2e().service.api(listPathOf(id))).json()) as ListInfo;
    await eventually(async () => (await info()).title).toBe('Errands');
    expect(await tab.listTitle.inputValue()).toBe('Errands');
  });

  it('shows a rename made in one tab in another tab of the list within a second', async () => {
    const id = await makeList();
    const [first, second] = [await openList(id), await openList(id)];
    await eventually(() => first.listTitle.isVisible()).toBe(true);

    await first.page.bringToFront();
    await first.rename('Weekend chores');
    await eventually(() => second.listTitle.inputValue(), AT_ONCE_MS).toBe('Weekend chores');
    expect(await second.page.title()).toBe('Weekend chores · todos');

    await e2e().service.api(listPathOf(id), 'PUT', { title: 'Renamed by the API' });
    for (const tab of [first, second]) {
      await eventually(() => tab.listTitle.inputValue(), AT_ONCE_MS).toBe('Renamed by the API');
    }
    await first.rename('');
    await eventually(() => second.listTitle.inputValue(), AT_ONCE_MS).toBe('');
    expect(await second.page.title()).toBe('todos');
  });

  it('leaves a title being edited alone when the list is renamed elsewhere', async () => {
    const id = await makeList('Before');
    const tab = await openList(id);
    await eventually(() => tab.listTitle.inputValue()).toBe('Before');
    await tab.listTitle.fill('Being typed');

    await e2e().service.api(listPathOf(id), 'PUT', { title: 'From elsewhere' });
    await eventually(() => tab.page.title()).toBe('From elsewhere · todos');
    expect(await tab.listTitle.inputValue()).toBe('Being typed');
    await tab.listTitle.press('Escape');
    expect(await tab.listTitle.inputValue()).toBe('From elsewhere');
  });

  it('says in every tab that a list deleted through the API is gone, and stops asking', async () => {
    const id = await makeList('Short-lived');
    const tabs = [await openList(id), await openList(id)];
    await tabs[0]!.add('Soon gone');
    await eventually(() => tabs[1]!.titles()).toEqual(['Soon gone']);
    const streams = tabs.map((tab) => requestsTo(tab.page, namedListPaths(id).sse));
    allowStreamCut(namedListPaths(id).sse);

    expect((await e2e().service.api(listPathOf(id), 'DELETE')).status).toBe(204);
    for (const tab of tabs) await showsGone(tab);

    // Longer than EventSource waits before it reconnects: no tab asks for the stream again.
    const served = (await e2e().service.requestsSoFar()).length;
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_DELAY_MS + 1000));
    expect(streams.map((stream) => stream.count)).toEqual([0, 0]);
    // The browser checks the page's service worker for an update on its own schedule: that
    // request is not the page asking about the list.
    const asked = e2e()
      .service.requests()
      .slice(served)
      .filter(({ path }) => path !== '/service-worker.js');
    expect(asked).toEqual([]);
  });

  it('deletes the list with Delete list once confirmed, and every tab says so', async () => {
    const id = await makeList('Spring cleaning');
    const [first, second] = [await openList(id), await openList(id)];
    await eventually(() => first.listTitle.inputValue()).toBe('Spring cleaning');
    allowStreamCut(namedListPaths(id).sse);
    const questions: string[] = [];
    let accept = false;
    first.page.on('dialog', (dialog) => {
      questions.push(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
    });

    await first.page.bringToFront();
    await first.deleteList.click();
    await eventually(() => questions.length).toBe(1);
    expect((await e2e().service.api(listPathOf(id))).status).toBe(200);
    expect(await first.gone.isHidden()).toBe(true);

    accept = true;
    await first.deleteList.click();
    await showsGone(first);
    await showsGone(second);
    expect(questions[0]).toContain('Delete this list');
    expect((await e2e().service.api(listPathOf(id))).status).toBe(404);
  });

  it('says so when opened on an id that names no list, and links to the default list', async () => {
    const origin = new URL(e2e().service.url).origin;
    // The page asks for the list's stream, is refused, and asks for the list: both answer 404,
    // which the browser also reports on the console. EventSource drops the refusal unread, which
    // the browser may report as an aborted request too.
    const [stream, list] = [namedListPaths(UNKNOWN_ID).sse, listPathOf(UNKNOWN_ID)].map(
      (path) => `${origin}${path}`,
    );
    const refused = [stream, list];
    const isRefusal = (problem: BrowserProblem) =>
      refused.includes(problem.url) &&
      ((problem.kind === 'error response' && problem.text === '404') ||
        (problem.kind === 'console error' && problem.text.includes('404')) ||
        (problem.kind === 'failed request' &&
          problem.text === 'net::ERR_ABORTED' &&
          problem.url === stream));
    e2e().problems.allow(isRefusal);
    const tab = await e2e().newTab();
    const streams = requestsTo(tab.page, namedListPaths(UNKNOWN_ID).sse);

    await tab.page.goto(`${origin}${listPageOf(UNKNOWN_ID)}`);
    await showsGone(tab);
    const refusedUrls = e2e()
      .problems.all()
      .filter((problem) => isRefusal(problem) && problem.kind === 'error response')
      .map((problem) => problem.url);
    expect(refusedUrls).toEqual(refused);
    expect(await tab.page.title()).toBe('No such list · todos');
    expect(streams.count).toBe(1);

    await tab.gone.getByRole('link', { name: 'Go to the default list' }).click();
    await tab.page.waitForURL(`${origin}/`);
    await tab.live();
    await tab.add('Back on the default list');
  });

  it('copies the link of the list, and shows it in a field where the clipboard is missing', async () => {
    const id = await makeList('Shared');
    const link = `${new URL(e2e().service.url).origin}${listPageOf(id)}`;
    await e2e().context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(link).origin,
    });
    const tab = await openList(id);
    await tab.page.bringToFront();
    await tab.copyLink.click();
    await eventually(() => tab.copyStatus.textContent()).toBe('Link copied');
    expect(await tab.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(await tab.listLink.isHidden()).toBe(true);

    const without = await e2e().newTab();
    await without.page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
    });
    await without.open(link);
    await without.copyLink.click();
    await eventually(() => without.listLink.isVisible()).toBe(true);
    expect(await without.listLink.inputValue()).toBe(link);
    expect(
      await without.listLink.evaluate(
        (field: HTMLInputElement) =>
          document.activeElement === field &&
          field.selectionStart === 0 &&
          field.selectionEnd === field.value.length,
      ),
    ).toBe(true);
    expect(await without.copyStatus.textContent()).toBe('Copy the link from the field');
  });
});
