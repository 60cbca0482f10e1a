import { describe, expect, it } from 'vitest';
import { useE2e } from './support/e2e.ts';

const OPERATIONS = [
  'GET /api/todos',
  'POST /api/todos',
  'GET /api/todos/{id}',
  'PUT /api/todos/{id}',
  'DELETE /api/todos/{id}',
  'GET /api/sse',
  'GET /healthz',
];

describe('the API reference at /docs', () => {
  const e2e = useE2e();

  /** The page at /docs once Swagger UI has rendered the document's operations. */
  const openReference = async () => {
    const tab = await e2e().newTab();
    await tab.page.goto(new URL('/docs', e2e().service.url).href);
    const operations = tab.page.locator('.opblock-summary');
    await operations.first().waitFor();
    return { page: tab.page, operations };
  };

  it('lists every route of the API', async () => {
    const { operations } = await openReference();
    const shown = (await operations.allTextContents()).map((text) => text.replace(/\s+/g, ' '));
    for (const operation of OPERATIONS) {
      const [method, path] = operation.split(' ');
      expect(shown.some((text) => text.startsWith(`${method}${path}`))).toBe(true);
    }
  });

  it('shows the summary that /api/openapi.json gives an operation', async () => {
    const document = await (await fetch(new URL('/api/openapi.json', e2e().service.url))).json();
    const summary: string = document.paths['/api/todos'].get.summary;
    const { operations } = await openReference();
    const listing = operations.filter({ hasText: summary });
    await listing.first().waitFor();
    expect(await listing.first().textContent()).toContain('/api/todos');
  });

  it('shows the title of the document', async () => {
    const { page } = await openReference();
    await page
      .getByRole('heading', { name: /To-do service/ })
      .first()
      .waitFor();
  });

  it('renders under the page CSP, from the service alone', async () => {
    const { page } = await openReference();
    const origins = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => new URL(entry.name).origin),
    );
    expect(new Set(origins)).toEqual(new Set([new URL(e2e().service.url).origin]));
  });
});
