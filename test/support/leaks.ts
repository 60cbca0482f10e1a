import { expect } from 'vitest';
import { PROJECT_ROOT } from '../../src/hosts/node/file-assets.ts';

/** What would tell a client how the server is built, or where it lives on disk. */
const LEAKS: readonly [string, RegExp][] = [
  ['a stack frame', /\bat \S+ \(|\bat (?:file|node):|\n\s+at /],
  ['a file path', /\/work\/|\bsrc\/|\bdist\/|node_modules|file:\/\/|node:internal/],
  ['a source file', /\.(?:ts|js|mjs|cjs)\b/],
  ['a version number', /\bv?\d+\.\d+\.\d+/],
  ['a software name', /\b(?:node\.?js|whatwg|itty|undici|workerd|miniflare|express)\b/i],
  // "Internal Server Error" is the 500's title; an error's class or "Error: message" is not.
  ['an error class', /\b(?:Type|Range|Reference|Syntax|Http)Error\b|\bError: /],
];

/** Fails, naming what leaked, if `text` holds any of LEAKS or the project's own path. */
export function expectNoLeak(text: string): void {
  const found = LEAKS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
  if (text.includes(PROJECT_ROOT)) found.push('the project path');
  expect(found, text.slice(0, 500)).toEqual([]);
}

/** Headers that name the server's software, whatever their value. */
const TELLING_HEADERS = ['server', 'x-powered-by', 'x-runtime', 'x-aspnet-version', 'via'];

/** Fails if the response's headers, or their values, say what the server is built with. */
export function expectNoLeakInHeaders(headers: Headers): void {
  expect(TELLING_HEADERS.filter((name) => headers.has(name))).toEqual([]);
  expectNoLeak([...headers].map(([name, value]) => `${name}: ${value}`).join('\n'));
}
