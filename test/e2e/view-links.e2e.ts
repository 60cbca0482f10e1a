import { describe, expect, it } from 'vitest';
import type { ListResource } from '../../src/model/resources.ts';
import { LISTS_PATH, listPageOf, namedListPaths } from '../../src/model/resources.ts';
import { CuttableProxy } from './support/cuttable-proxy.ts';
import { closedAfterEach, useE2e } from './support/e2e.ts';
import { allowUnreachableApi, pendingStatus, untilWorksOffline } from './support/offline.ts';
import { eventually, TodoPage } from './support/todo-page.ts';

/** Within a second, as a user would call "at once". */
const AT_ONCE_MS = 1000;
const VIEW_ONLY = 'View only: you can read this list, not change it.';
/** What changes a list: a view-only page must offer none of it, to the mouse or the keyboard. */
const CHANGING = ['new-todo', 'toggle', 'destroy', 'toggle-all', 'clear-completed', 'delete-list'];

describe("a list's view-only page", () => {
  const e2e = useE2e();
  const closedAfterTest = closedAfterEach();

  async function makeList(title: string, ...items: string[]): Promise<ListResource> {
    const response = await e2e().service.api(LISTS_PATH, 'POST', { title });
    const list = (await response.json()) as ListResource;
    for (const item of items) {
      await e2e().service.api(namedListPaths(list.id).todos, 'POST', { title: item });
    }
    return list;
  }

  const linkOf = (id: string) => new URL(listPageOf(id), e2e().service.url).href;

  /** The page at the view-only link, in a browser of its own that may use the clipboard. */
  async function openReader(viewId: string): Promise<TodoPage> {
    const context = closedAfterTest(
      await e2e().browser.newContext({ viewport: { width: 800, height: 600 } }),
    );
    const link = linkOf(viewId);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(link).origin,
    });
    const page = await context.newPage();
    e2e().problems.watch(page);
    return new TodoPage(page).open(link);
  }

  /** What the page says, and which of its elements that change the list it shows or focuses. */
  async function changingControls(tab: TodoPage): Promise<string[]> {
    const shown = await tab.page
      .locator(CHANGING.map((name) => `.${name}`).join(', '))
      .evaluateAll((parts) =>
        parts.filter((part) => (part as HTMLElement).offsetParent !== null).map((p) => p.className),
      );
    const focused: string[] = [];
    await tab.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let press = 0; press < 15; press += 1) {
      await tab.page.keyboard.press('Tab');
      focused.push(await tab.page.evaluate(() => document.activeElement?.className ?? ''));
    }
    return [...shown, ...focused.filter((name) => CHANGING.includes(name))];
  }

  it('shows, live, what is done through the edit link in another browser', async () => {
    const { id, viewId } = await makeList('Groceries', 'Milk');
    const editor = await e2e().openTodos(listPageOf(id));
    const reader = await openReader(viewId);
    await eventually(() => reader.titles()).toEqual(['Milk']);
    await eventually(() => reader.listTitle.inputValue()).toBe('Groceries');

    await editor.add('Eggs');
    await eventually(() => reader.titles(), AT_ONCE_MS).toEqual(['Milk', 'Eggs']);
    await editor.toggle('Milk');
    await eventually(() => reader.completedStates(), AT_ONCE_MS).toEqual([true, false]);
    const edit = await editor.edit('Eggs');
    await edit.fill('Free-range eggs');
    await edit.press('Enter');
    await eventually(() => reader.titles(), AT_ONCE_MS).toEqual(['Milk', 'Free-range eggs']);
    await editor.rename('Weekend shop');
    await eventually(() => reader.listTitle.inputValue(), AT_ONCE_MS).toBe('Weekend shop');
    expect(await reader.page.title()).toBe('Weekend shop · todos');
  });

  it('says it is view-only and offers nothing that changes the list', async () => {
    const { id, viewId } = await makeList('Groceries', 'Milk', 'Eggs');
    const todos = namedListPaths(id).todos;
    const [milk] = (await (await e2e().service.api(todos)).json()) as { id: string }[];
    await e2e().service.api(`${todos}/${milk!.id}`, 'PUT', { title: 'Milk', completed: true });
    const reader = await openReader(viewId);
    const changes: string[] = [];
    reader.page.on('request', (request) => {
      if (!['GET', 'HEAD'].includes(request.method())) changes.push(request.url());
    });

    await eventually(() => reader.viewOnly.isVisible()).toBe(true);
    expect(await reader.viewOnly.textContent()).toBe(VIEW_ONLY);
    await eventually(() => reader.listTitle.inputValue()).toBe('Groceries');
    expect(await reader.titles()).toEqual(['Milk', 'Eggs']);
    expect(await reader.completedStates()).toEqual([true, false]);
    expect(await reader.listTitle.isEditable()).toBe(false);
    expect(await changingControls(reader)).toEqual([]);
    expect(await reader.copyViewLink.isHidden()).toBe(true);
    await reader.item('Eggs').locator('label').dblclick();
    expect(await reader.page.locator('.todo-list li.editing').count()).toBe(0);
    await reader.listTitle.press('Enter');
    expect(changes).toEqual([]);
  });

  it('copies the edit link or the view-only link from the edit page, only the latter from the view-only one', async () => {
    const { id, viewId } = await makeList('Shared');
    await e2e().context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(e2e().service.url).origin,
    });
    const editor = await e2e().openTodos(listPageOf(id));
    const clipboard = (tab: TodoPage) => tab.page.evaluate(() => navigator.clipboard.readText());
    await editor.page.bringToFront();

    await editor.copyLink.click();
    await eventually(() => editor.copyStatus.textContent()).toBe('Link copied');
    expect(await clipboard(editor)).toBe(linkOf(id));
    await editor.copyViewLink.click();
    await eventually(() => editor.copyStatus.textContent()).toBe('View-only link copied');
    expect(await clipboard(editor)).toBe(linkOf(viewId));
    expect(await editor.viewOnly.isHidden()).toBe(true);

    const reader = await openReader(viewId);
    await eventually(() => reader.viewOnly.isVisible()).toBe(true);
    expect(await reader.copyViewLink.isHidden()).toBe(true);
    await reader.copyLink.click();
    await eventually(() => reader.copyStatus.textContent()).toBe('Link copied');
    expect(await clipboard(reader)).toBe(linkOf(viewId));
  });

  it('shows the view-only link in a field where the clipboard is missing', async () => {
    const { id, viewId } = await makeList('Shared');
    const tab = await e2e().newTab();
    await tab.page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
    });
    await tab.open(linkOf(id));
    await tab.copyViewLink.click();
    await eventually(() => tab.listLink.isVisible()).toBe(true);
    expect(await tab.listLink.inputValue()).toBe(linkOf(viewId));
    expect(await tab.listLink.evaluate((field) => document.activeElement === field)).toBe(true);
    expect(await tab.copyStatus.textContent()).toBe('Copy the view-only link from the field');
  });

  it('opens offline as a reader: the items as last seen, still view-only', async () => {
    const { viewId } = await makeList('Groceries', 'Milk', 'Eggs');
    const proxy = closedAfterTest(await CuttableProxy.start(e2e().service.url));
    allowUnreachableApi(e2e().problems, proxy.url);
    const reader = await e2e().openTodos(`${proxy.url}${listPageOf(viewId)}`);
    await eventually(() => reader.viewOnly.isVisible()).toBe(true);
    await untilWorksOffline(reader);

    proxy.cut('reset');
    await reader.page.reload();
    await eventually(() => reader.titles()).toEqual(['Milk', 'Eggs']);
    await eventually(() => reader.connection.textContent()).toBe('Reconnecting…');
    expect(await reader.viewOnly.isVisible()).toBe(true);
    expect(await changingControls(reader)).toEqual([]);
    expect(await pendingStatus(reader)).toBe('');
  });
});
