import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { BrowserProblems } from './browser-problems.ts';
import { launchChromium } from './chromium.ts';
import { Service } from './service.ts';
import { TodoPage } from './todo-page.ts';

export interface E2e {
  readonly browser: Browser;
  readonly service: Service;
  readonly context: BrowserContext;
  readonly problems: BrowserProblems;
  /** A new tab, watched for problems, with the page open and live. */
  openTodos(path?: string): Promise<TodoPage>;
  /** A new tab, watched for problems, nothing loaded. */
  newTab(): Promise<TodoPage>;
  /** Stops the service and starts a new one on the same port; `whileDown` runs in between. */
  restartService(whileDown?: () => Promise<void>): Promise<void>;
}

/**
 * One Chromium for the file; for every test a fresh service, a fresh browser context, and at
 * the end the check that no page logged an error or lost a request it was not meant to.
 */
export function useE2e(): () => E2e {
  let browser: Browser;
  let current: E2e | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    let [service, context] = await Promise.all([
      Service.start(),
      browser.newContext({ viewport: { width: 800, height: 600 } }),
    ]);
    const problems = new BrowserProblems();
    const newTab = async () => {
      const page = await context.newPage();
      problems.watch(page);
      return new TodoPage(page);
    };
    current = {
      browser,
      get service() {
        return service;
      },
      context,
      problems,
      newTab,
      openTodos: async (path = '/') => (await newTab()).open(new URL(path, service.url).href),
      restartService: async (whileDown) => {
        const port = service.port;
        await service.stop();
        await whileDown?.();
        service = await Service.restartOn(port);
      },
    };
  });

  afterEach(async () => {
    const e2e = current;
    current = undefined;
    if (!e2e) return;
    try {
      expect(e2e.problems.unexpected()).toEqual([]);
    } finally {
      await e2e.context.close();
      await e2e.service.stop();
    }
  });

  return () => {
    if (!current) throw new Error('useE2e() gives its E2e inside a test only.');
    return current;
  };
}

/**
 * What a test starts beside the service (a proxy, another origin), closed after the test:
 * the function returned hands back `thing`.
 */
export function closedAfterEach(): <T extends { close(): Promise<unknown> }>(thing: T) => T {
  const started: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((thing) => thing.close()));
  });
  return (thing) => {
    started.push(thing);
    return thing;
  };
}
