import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Waits for `read` to give what `matches` checks, for up to five seconds unless told. */
export function eventually<T>(read: () => T | Promise<T>, timeout = 5000) {
  return expect.poll(read, { timeout, interval: 25 });
}

/** The to-do page as a user sees it, by TodoMVC's markup. */
export class TodoPage {
  readonly newTodo: Locator;
  readonly items: Locator;
  readonly labels: Locator;
  readonly main: Locator;
  readonly footer: Locator;
  readonly count: Locator;
  readonly toggleAll: Locator;
  readonly clearCompleted: Locator;
  readonly selectedFilter: Locator;
  readonly connection: Locator;
  readonly problem: Locator;
  readonly listTitle: Locator;
  readonly newList: Locator;
  readonly copyLink: Locator;
  readonly copyViewLink: Locator;
  readonly deleteList: Locator;
  readonly copyStatus: Locator;
  readonly listLink: Locator;
  /** The message a page shows when its list was deleted, or never existed. */
  readonly gone: Locator;
  /** What a page opened by a list's view id says of it. */
  readonly viewOnly: Locator;

  constructor(readonly page: Page) {
    this.newTodo = page.locator('.new-todo');
    this.items = page.locator('.todo-list li');
    this.labels = page.locator('.todo-list li .view label');
    this.main = page.locator('section.main');
    this.footer = page.locator('footer.footer');
    this.count = page.locator('.todo-count');
    this.toggleAll = page.locator('input#toggle-all.toggle-all');
    this.clearCompleted = page.locator('button.clear-completed');
    this.selectedFilter = page.locator('.filters a.selected');
    this.connection = page.locator('.connection-status');
    this.problem = page.locator('.problem');
    this.listTitle = page.getByRole('textbox', { name: 'List title' });
    this.newList = page.getByRole('button', { name: 'New list' });
    this.copyLink = page.getByRole('button', { name: 'Copy link' });
    this.copyViewLink = page.getByRole('button', { name: 'Copy view-only link' });
    this.deleteList = page.getByRole('button', { name: 'Delete list' });
    this.copyStatus = page.locator('.copy-status');
    this.listLink = page.getByRole('textbox', { name: 'Link to this list' });
    this.gone = page.locator('.list-gone');
    this.viewOnly = page.locator('.view-only');
  }

  /** Opens the page and waits until the event stream has given it the list. */
  async open(url: string): Promise<this> {
    await this.page.goto(url);
    await this.live();
    return this;
  }

  /** Waits until the stream is open and has delivered at least one snapshot. */
  async live(): Promise<void> {
    await this.page
      .locator('.connection-status[data-state="open"]:not([data-snapshots="0"])')
      .waitFor({ state: 'attached' });
  }

  item(title: string): Locator {
    return this.items.filter({ has: this.page.getByText(title, { exact: true }) });
  }

  titles(): Promise<string[]> {
    return this.labels.allTextContents();
  }

  /** Adds each title as a user does, and waits for it to be listed before the next. */
  async add(...titles: string[]): Promise<void> {
    for (const title of titles) {
      await this.newTodo.fill(title);
      await this.newTodo.press('Enter');
      await this.item(title).waitFor();
    }
  }

  async toggle(title: string): Promise<void> {
    await this.item(title).locator('.toggle').click();
  }

  async destroy(title: string): Promise<void> {
    const item = this.item(title);
    await item.hover();
    await item.locator('.destroy').click();
  }

  /** Double-clicks the title and gives back the edit field. */
  async edit(title: string): Promise<Locator> {
    await this.item(title).locator('label').dblclick();
    return this.page.locator('.todo-list li.editing input.edit');
  }

  /** Which of the items are shown as completed, in order. */
  completedStates(): Promise<boolean[]> {
    return this.items.evaluateAll((items) => items.map((li) => li.classList.contains('completed')));
  }

  async snapshots(): Promise<number> {
    return Number(await this.connection.getAttribute('data-snapshots'));
  }

  /** Types a new title for the list and saves it with Enter. */
  async rename(title: string): Promise<void> {
    await this.listTitle.fill(title);
    await this.listTitle.press('Enter');
  }

  async lastEventId(): Promise<string> {
    return (await this.connection.getAttribute('data-last-event-id')) ?? '';
  }
}
