import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CuttableProxy } from './support/cuttable-proxy.ts';
import { closedAfterEach, useE2e } from './support/e2e.ts';
import {
  allowUnreachableApi,
  pendingItems,
  pendingStatus,
  untilWorksOffline,
} from './support/offline.ts';
import { Service } from './support/service.ts';
import { eventually, TodoPage } from './support/todo-page.ts';

interface TodoJson {
  id: string;
  title: string;
  completed: boolean;
}

const NOT_SENT = 'not sent yet';

describe('the page offline', () => {
  const e2e = useE2e();
  const closedAfterTest = closedAfterEach();
  let proxy: CuttableProxy | undefined;

  /** The list as the service holds it, asked directly: `title (completed)` for each item. */
  async function serverList(service = e2e().service): Promise<string[]> {
    const todos = (await (await service.api('/api/todos')).json()) as TodoJson[];
    return todos.map((todo) => `${todo.title}${todo.completed ? ' (completed)' : ''}`);
  }

  /** The list as a page shows it: `title (completed)` for each item. */
  async function shown(tab: TodoPage): Promise<string[]> {
    const completed = await tab.completedStates();
    return (await tab.titles()).map(
      (title, at) => `${title}${completed[at] ? ' (completed)' : ''}`,
    );
  }

  /** A tab on the page, loaded through a proxy the test can cut, ready to work offline. */
  async function openBehindProxy(): Promise<TodoPage> {
    proxy = closedAfterTest(await CuttableProxy.start(e2e().service.url));
    const tab = await e2e().openTodos(`${proxy.url}/`);
    await untilWorksOffline(tab);
    allowUnreachableApi(e2e().problems, proxy.url);
    return tab;
  }

  /**
   * Waits until the page says `edits` are kept on this device: an edit is listed at once, and
   * written to the device just after, so a reload before then would lose it.
   */
  async function untilKept(tab: TodoPage, edits: string): Promise<void> {
    await eventually(() => pendingStatus(tab)).toBe(`${edits} not sent yet: kept on this device`);
  }

  async function goOffline(tab: TodoPage): Promise<void> {
    proxy!.cut('reset');
    await eventually(() => tab.connection.getAttribute('data-state')).toBe('reconnecting');
  }

  /**
   * A page with four items, then, with the service out of reach, one of each kind of edit: an
   * add, a tick, a rename and a delete.
   */
  async function editedOffline() {
    const tab = await openBehindProxy();
    await tab.add('Walk dog', 'Buy milk', 'Old title', 'Call mum');
    await goOffline(tab);
    await tab.add('Made offline');
    await tab.toggle('Walk dog');
    const edit = await tab.edit('Old title');
    await edit.fill('New title');
    await edit.press('Enter');
    await tab.destroy('Call mum');
    return tab;
  }

  /** The service is reachable again: waits until the page has sent every edit it kept. */
  async function comeBack(tab: TodoPage): Promise<void> {
    proxy!.restore();
    await eventually(() => tab.connection.getAttribute('data-state'), 10_000).toBe('open');
    await eventually(() => pendingStatus(tab), 10_000).toBe('');
  }

  /** The list as a page in another browser profile shows it, once it has loaded. */
  async function seenElsewhere(url: string): Promise<string[]> {
    const context = await e2e().browser.newContext();
    try {
      const tab = await new TodoPage(await context.newPage()).open(url);
      return await shown(tab);
    } finally {
      await context.close();
    }
  }

  it('can be installed: its manifest names the app, its icon, where it starts and how it shows', async () => {
    const tab = await e2e().openTodos();
    const href = await tab.page.locator('link[rel="manifest"]').getAttribute('href');
    const response = await e2e().service.api(href!);
    expect(response.headers.get('content-type')).toBe('application/manifest+json');
    const manifest = (await response.json()) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: 'todos',
      start_url: '/',
      display: 'standalone',
      icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' }],
    });
    expect((await e2e().service.api('/favicon.svg')).status).toBe(200);
  });

  it('serves the page from its service worker, and never an answer of the API', async () => {
    const tab = await e2e().openTodos();
    await untilWorksOffline(tab);
    // A reload ends the open event stream, as it must.
    e2e().problems.allow(
      ({ kind, url, text }) =>
        kind === 'failed request' &&
        new URL(url).pathname === '/api/sse' &&
        text === 'net::ERR_ABORTED',
    );
    await tab.page.reload();
    await tab.live();
    expect(await tab.page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const answers: { path: string; fromWorker: boolean }[] = [];
    tab.page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      answers.push({ path, fromWorker: response.fromServiceWorker() });
    });
    await tab.add('Online, through the network');
    await tab.page.reload();
    await tab.live();
    await eventually(() => tab.titles()).toEqual(['Online, through the network']);
    const api = answers.filter(({ path }) => path.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(0);
    expect(api.filter(({ fromWorker }) => fromWorker)).toEqual([]);
    expect(answers.find(({ path }) => path === '/build/page/main.js')?.fromWorker).toBe(true);
  });

  it('adds, ticks, renames and deletes offline at once, each marked as not sent yet', async () => {
    const tab = await editedOffline();

    expect(await shown(tab)).toEqual([
      'Walk dog (completed)',
      'Buy milk',
      'New title',
      'Made offline',
    ]);
    expect(await pendingItems(tab)).toEqual([
      `Walk dog (${NOT_SENT})`,
      `New title (${NOT_SENT})`,
      `Made offline (${NOT_SENT})`,
    ]);
    await untilKept(tab, '4 changes');
    expect(await serverList()).toEqual(['Walk dog', 'Buy milk', 'Old title', 'Call mum']);
  });

  it('sends each edit made offline once when the service is back, for every browser to see', async () => {
    const tab = await editedOffline();

    await comeBack(tab);

    const expected = ['Walk dog (completed)', 'Buy milk', 'New title', 'Made offline'];
    expect(await serverList()).toEqual(expected);
    expect(await pendingItems(tab)).toEqual([]);
    await eventually(() => shown(tab)).toEqual(expected);
    expect(await seenElsewhere(e2e().service.url)).toEqual(expected);
  });

  it('toggles all and clears the completed offline, and sends them once back', async () => {
    const tab = await openBehindProxy();
    await tab.add('One', 'Two', 'Three');
    await goOffline(tab);

    await tab.page.locator('label[for="toggle-all"]').click();
    await tab.toggle('Two');
    await tab.clearCompleted.click();
    expect(await shown(tab)).toEqual(['Two']);
    await untilKept(tab, '6 changes');

    await comeBack(tab);
    expect(await serverList()).toEqual(['Two']);
    await eventually(() => shown(tab)).toEqual(['Two']);
  });

  it('opens offline with the list as last seen and the edits not sent yet', async () => {
    const tab = await openBehindProxy();
    await tab.add('Seen online');
    await goOffline(tab);
    await tab.add('Added offline');
    await untilKept(tab, '1 change');

    await tab.page.reload();
    await eventually(() => shown(tab)).toEqual(['Seen online', 'Added offline']);
    expect(await pendingItems(tab)).toEqual([`Added offline (${NOT_SENT})`]);
    expect(await tab.connection.textContent()).toBe('Reconnecting…');

    await comeBack(tab);
    expect(await serverList()).toEqual(['Seen online', 'Added offline']);
  });

  it("opens a named list's page offline with its items as last seen, apart from other lists", async () => {
    const made = await e2e().service.api('/api/lists', 'POST', { title: 'Groceries' });
    const { id } = (await made.json()) as { id: string };
    proxy = closedAfterTest(await CuttableProxy.start(e2e().service.url));
    allowUnreachableApi(e2e().problems, proxy.url);
    const home = await e2e().openTodos(`${proxy.url}/`);
    await home.add('On the default list');
    const tab = await e2e().openTodos(`${proxy.url}/lists/${id}`);
    await untilWorksOffline(tab);
    await tab.add('Eggs');
    await goOffline(tab);
    await tab.add('Flour');
    await untilKept(tab, '1 change');

    await tab.page.reload();
    await eventually(() => shown(tab)).toEqual(['Eggs', 'Flour']);
    expect(await pendingItems(tab)).toEqual([`Flour (${NOT_SENT})`]);

    await comeBack(tab);
    const items = await e2e().service.api(`/api/lists/${id}/todos`);
    expect(((await items.json()) as TodoJson[]).map((todo) => todo.title)).toEqual([
      'Eggs',
      'Flour',
    ]);
    expect(await serverList()).toEqual(['On the default list']);
  });

  it('names the edits that did not apply because the item changed elsewhere meanwhile', async () => {
    const tab = await openBehindProxy();
    await tab.add('Changed there', 'Deleted there', 'Untouched');
    const [changed, deleted] = (await (await e2e().service.api('/api/todos')).json()) as TodoJson[];
    await goOffline(tab);
    await tab.toggle('Changed there');
    await tab.toggle('Deleted there');
    await tab.toggle('Untouched');
    const elsewhere = { title: 'Changed there, twice', completed: false };
    await e2e().service.api(`/api/todos/${changed!.id}`, 'PUT', elsewhere);
    await e2e().service.api(`/api/todos/${deleted!.id}`, 'DELETE');

    // The conflicts themselves: the service refuses the toggle of the item changed there (412)
    // and finds no item deleted there (404).
    e2e().problems.allow(
      ({ kind, url, text }) =>
        kind === 'error response' &&
        [`412 /api/todos/${changed!.id}`, `404 /api/todos/${deleted!.id}`].includes(
          `${text} ${new URL(url).pathname}`,
        ),
    );
    await comeBack(tab);
    const notice = tab.page.locator('.edit-notice');
    expect(await notice.getAttribute('role')).toBe('alert');
    expect(await notice.innerText()).toBe(
      'Your edit of “Changed there” did not apply: it was changed elsewhere meanwhile. ' +
        'Your edit of “Deleted there” did not apply: it was deleted elsewhere.',
    );
    expect(await serverList()).toEqual(['Changed there, twice', 'Untouched (completed)']);
    await eventually(() => shown(tab)).toEqual(['Changed there, twice', 'Untouched (completed)']);
  });

  it('shares the edits made offline by every tab of the list, and sends each once', async () => {
    const first = await openBehindProxy();
    const second = await e2e().openTodos(`${proxy!.url}/`);
    await goOffline(first);
    await eventually(() => second.connection.getAttribute('data-state')).toBe('reconnecting');

    await first.add('From the first tab');
    await second.add('From the second tab');
    const both = ['From the first tab', 'From the second tab'];
    await eventually(() => first.titles()).toEqual(both);
    expect(await pendingItems(first)).toEqual(both.map((title) => `${title} (${NOT_SENT})`));

    await comeBack(first);
    await eventually(() => pendingStatus(second)).toBe('');
    expect(await serverList()).toEqual(both);
    const creates = (await e2e().service.requestsSoFar()).filter(
      (request) => request.method === 'POST',
    );
    expect(creates).toHaveLength(2);
  });

  it('sends a create whose answer was lost again, and the service holds it once', async () => {
    const tab = await openBehindProxy();
    await goOffline(tab);
    await tab.add('Answer lost');
    const lost = proxy!.loseNextAnswer('POST /api/todos');

    proxy!.restore();
    await lost;
    await eventually(() => pendingStatus(tab), 10_000).toBe('');
    expect(await serverList()).toEqual(['Answer lost']);
    await eventually(() => shown(tab)).toEqual(['Answer lost']);
  });
});

describe('the page offline, with storage on', () => {
  const e2e = useE2e();
  const folder = mkdtempSync(join(tmpdir(), 'todo-offline-'));
  const storage = { STORAGE_FILE: join(folder, 'todos.sqlite') };
  let service: Service | undefined;
  afterEach(async () => {
    await service?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps edits made offline across a closed tab, and lands each once when the service starts', async () => {
    service = await Service.start(0, storage);
    const url = service.url;
    const port = service.port;
    const first = await e2e().openTodos(url);
    await first.add('Before the outage');
    await untilWorksOffline(first);
    allowUnreachableApi(e2e().problems, new URL(url).origin);

    await service.stop();
    await eventually(() => first.connection.getAttribute('data-state')).toBe('reconnecting');
    await first.add('Milk', 'Eggs', 'Bread');
    await first.toggle('Eggs');
    await eventually(() => pendingStatus(first)).toBe(
      '4 changes not sent yet: kept on this device',
    );
    await first.page.close();

    const reopened = await e2e().newTab();
    await reopened.page.goto(url);
    const offline = ['Before the outage', 'Milk', 'Eggs (completed)', 'Bread'];
    await eventually(() => shown(reopened)).toEqual(offline);
    expect(await reopened.page.locator('.todo-list li.pending label').allTextContents()).toEqual([
      'Milk',
      'Eggs',
      'Bread',
    ]);

    service = await Service.restartOn(port, storage);
    await eventually(() => pendingStatus(reopened), 15_000).toBe('');
    const list = (await (await service.api('/api/todos')).json()) as TodoJson[];
    expect(list.map((todo) => [todo.title, todo.completed])).toEqual([
      ['Before the outage', false],
      ['Milk', false],
      ['Eggs', true],
      ['Bread', false],
    ]);
    const other = await e2e().browser.newContext();
    try {
      const elsewhere = await new TodoPage(await other.newPage()).open(url);
      expect(await shown(elsewhere)).toEqual(offline);
    } finally {
      await other.close();
    }
  });

  async function shown(tab: TodoPage): Promise<string[]> {
    const completed = await tab.completedStates();
    return (await tab.titles()).map(
      (title, at) => `${title}${completed[at] ? ' (completed)' : ''}`,
    );
  }
});
