// `npm run dev:edge` runs this first: the worker needs the secret VIEW_KEY, which `wrangler dev`
// reads from .dev.vars (never committed, never deployed). A key is made once, then kept, so that
// the view-only links of lists kept in .wrangler/ stay the same from one run to the next.
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

const FILE = '.dev.vars';
const held = existsSync(FILE) ? readFileSync(FILE, 'utf8') : '';
if (!/^VIEW_KEY\s*=/m.test(held)) {
  const separator = held === '' || held.endsWith('\n') ? '' : '\n';
  appendFileSync(FILE, `${separator}VIEW_KEY=${randomBytes(32).toString('base64url')}\n`);
  console.log(`${FILE}: made a VIEW_KEY for local runs.`);
}
