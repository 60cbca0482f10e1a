import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPageOf, namedListPaths } from '../../src/model/resources.ts';
import { sendJson } from '../support/api.ts';
import { createList } from '../support/lists.ts';
import { Workerd } from '../support/workerd-host.ts';
import { BrowserProblems } from './support/browser-problems.ts';
import { launchChromium } from './support/chromium.ts';
import { eventually, TodoPage } from './support/todo-page.ts';

describe('two tabs left open on a named list under wrangler dev', () => {
  let browser: Browser;
  let dev: Workerd;
  beforeAll(async () => {
    [browser, dev] = await Promise.all([
      launchChromium(),
      Workerd.wranglerDev('edge tabs', { vars: {} }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
  });

  it('lets the list’s object sleep while they sit idle, and both show a change made with curl', async () => {
    const { id } = await createList(dev.asService(), 'Shop');
    const context = await browser.newContext();
    const problems = new BrowserProblems();
    const tabs = [];
    for (let i = 0; i < 2; i += 1) {
      const page = await context.newPage();
      problems.watch(page);
      tabs.push(await new TodoPage(page).open(new URL(listPageOf(id), dev.origin).href));
    }
    await dev.leftMemory(id);
    const idle = await dev.objectState(id);
    await dev.fetch(namedListPaths(id).todos, sendJson('POST', { title: 'Milk' }));
    await Promise.all(tabs.map((tab) => eventually(() => tab.titles()).toEqual(['Milk'])));
    await context.close();
    // The tabs of a list share one stream, which one of them holds.
    expect([idle.requestsInFlight, idle.webSockets, problems.unexpected()]).toEqual([0, 1, []]);
    expect(dev.newFailures()).toEqual([]);
  }, 90_000);
});
