import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { BrowserProblem } from './support/browser-problems.ts';
import { closedAfterEach, useE2e } from './support/e2e.ts';
import { eventually } from './support/todo-page.ts';
import { OtherOrigin } from './support/other-origin.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('a page on another origin', () => {
  const e2e = useE2e();
  const closedAfterTest = closedAfterEach();

  it('creates, updates and deletes through fetch and follows EventSource, under CORS', async () => {
    const other = closedAfterTest(await OtherOrigin.start());
    const api = e2e().service.url;
    expect(new URL(other.url).origin).not.toBe(new URL(api).origin);
    const tab = await e2e().newTab();
    const apiRequests: Request[] = [];
    tab.page.on('request', (request) => {
      if (request.url().startsWith(`${api}/api/`)) apiRequests.push(request);
    });
    // The scenario ends by reading the service's page, which has no CORS headers: the browser
    // refuses, says so on the console, and reports the request failed. That one only.
    const blocked = `${api}/`;
    const corsRefusal = `Access to fetch at '${blocked}' from origin '${other.url}' has been blocked by CORS policy`;
    const isBlocked = (problem: BrowserProblem) =>
      (problem.url === blocked &&
        (problem.kind === 'failed request' || problem.kind === 'console error') &&
        problem.text.includes('net::ERR_FAILED')) ||
      (problem.kind === 'console error' && problem.text.startsWith(corsRefusal));
    e2e().problems.allow(isBlocked);

    await tab.page.goto(`${other.url}/?api=${encodeURIComponent(api)}`);
    const result = tab.page.locator('#result[data-done]');
    await result.waitFor({ state: 'attached' });
    const text = (await result.textContent()) ?? '';
    expect(await result.getAttribute('data-done'), text).toBe('ok');
    const checks = JSON.parse(text);

    expect(checks.snapshot).toEqual([]);
    const { item } = checks.create;
    expect(checks.create).toEqual({
      status: 201,
      item: { id: expect.stringMatching(UUID), title: 'From afar', completed: false },
      location: `/api/todos/${item.id}`,
      date: null,
      event: item,
    });
    const done = { id: item.id, title: 'From afar, done', completed: true };
    expect(checks.update).toEqual({ status: 200, item: done, event: done });
    expect(checks.remove).toEqual({ status: 200, item: done, event: done });
    expect(checks.readingThePage).toBe('TypeError');

    // The browser sent its origin, and asked before each JSON request: a real preflight.
    const origins = await Promise.all(apiRequests.map((request) => request.headerValue('origin')));
    expect(apiRequests.map((request) => request.method()).sort()).toEqual([
      'DELETE',
      'GET',
      'POST',
      'PUT',
    ]);
    expect(new Set(origins)).toEqual(new Set([other.url]));
    // The service writes its log in batches, up to 50 ms late.
    const preflights = () =>
      e2e()
        .service.requests()
        .filter((request) => request.method === 'OPTIONS')
        .map((request) => `${request.path} ${request.status}`);
    await eventually(preflights).toEqual(['/api/todos 204', `/api/todos/${item.id} 204`]);
    expect(await (await e2e().service.api('/api/todos')).json()).toEqual([]);
    // The browser itself says it enforced CORS on that request.
    await eventually(() => e2e().problems.all().filter(isBlocked).length).toBe(3);
    expect(
      e2e()
        .problems.all()
        .some((problem) => problem.text.startsWith(corsRefusal)),
    ).toBe(true);
  });
});
