import { afterAll } from 'vitest';
import { conformanceSuite } from './conformance/index.ts';
import { stopWranglerDev, wranglerDevHost } from './support/wrangler-dev-host.ts';
import { refusedBodiesSuite } from './workerd/refused-bodies.ts';

conformanceSuite(wranglerDevHost);
refusedBodiesSuite(wranglerDevHost);
afterAll(stopWranglerDev);
