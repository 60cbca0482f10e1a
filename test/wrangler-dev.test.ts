import { afterAll, describe } from 'vitest';
import { clientLimitsSuite } from './conformance/client-limits.ts';
import { eventsSuite } from './conformance/events.ts';
import { hostileInputSuite, WRANGLER_DEV_WIRE } from './conformance/hostile-input.ts';
import { itemsSuite } from './conformance/items.ts';
import { listsSuite } from './conformance/lists.ts';
import { viewLinksSuite } from './conformance/view-links.ts';
import { modelBasedSuite } from './model/suite.ts';
import { checkedAgainstOpenApi } from './support/openapi-check.ts';
import { stopWorkerd, wranglerDev } from './support/workerd-host.ts';
import { manyStreamsSuite } from './workerd/many-streams.ts';
import { refusedBodiesSuite } from './workerd/refused-bodies.ts';

// The suites run on workerd through Miniflare (test/workerd.test.ts); this is the proof that
// the real CLI, its proxy and its development middleware in front, serves the same worker.
const host = checkedAgainstOpenApi(wranglerDev);
describe(host.name, () => {
  itemsSuite(host);
  eventsSuite(host);
  listsSuite(host);
  viewLinksSuite(host);
  // Each client as the address it connects from, which the CLI passes on in CF-Connecting-IP.
  clientLimitsSuite(host, { streamsOnly: true });
});
refusedBodiesSuite(wranglerDev, 2);
manyStreamsSuite(wranglerDev);
hostileInputSuite(wranglerDev, WRANGLER_DEV_WIRE);
// Every stream a random sequence opens, replayed into its list through the CLI's proxy: the
// other aspects and the kept sequences run on workerd in test/model/model-based.test.ts.
modelBasedSuite(wranglerDev, { test: 3, fuzz: 30 }, { aspects: ['events'], keptSequences: false });
afterAll(stopWorkerd);
