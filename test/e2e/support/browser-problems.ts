import type { Page } from 'playwright-core';

/** Something a page reported that a healthy page never does. */
export interface BrowserProblem {
  readonly kind: 'console error' | 'page error' | 'failed request' | 'error response';
  /** The request's URL, or for console messages the URL they name. */
  readonly url: string;
  readonly text: string;
}

export type Allowance = (problem: BrowserProblem) => boolean;

/**
 * Collects console errors, uncaught exceptions, failed requests and error responses of every
 * page it watches. A test that breaks something on purpose allows exactly that, no more.
 */
export class BrowserProblems {
  readonly #seen: BrowserProblem[] = [];
  readonly #allowances: Allowance[] = [];

  watch(page: Page): void {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      this.#seen.push({ kind: 'console error', url: message.location().url, text: message.text() });
    });
    page.on('pageerror', (error) => {
      this.#seen.push({ kind: 'page error', url: page.url(), text: String(error.stack ?? error) });
    });
    page.on('requestfailed', (request) => {
      const text = request.failure()?.errorText ?? 'failed';
      this.#seen.push({ kind: 'failed request', url: request.url(), text });
    });
    page.on('response', (response) => {
      if (response.status() < 400) return;
      this.#seen.push({
        kind: 'error response',
        url: response.url(),
        text: `${response.status()}`,
      });
    });
  }

  allow(allowance: Allowance): void {
    this.#allowances.push(allowance);
  }

  /** What was seen and not allowed, as readable lines: an empty list when all is well. */
  unexpected(): string[] {
    return this.#seen
      .filter((problem) => !this.#allowances.some((allows) => allows(problem)))
      .map(({ kind, url, text }) => `${kind}: ${url} ${text}`);
  }

  /** Everything seen, allowed or not: tests show that what they broke did break. */
  all(): readonly BrowserProblem[] {
    return this.#seen;
  }
}
