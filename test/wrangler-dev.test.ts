import { afterAll } from 'vitest';
import { conformanceSuite } from './conformance/index.ts';
import {
  stopWranglerDev,
  wranglerDev,
  wranglerDevAsDeployed,
} from './support/wrangler-dev-host.ts';
import { refusedBodiesSuite } from './workerd/refused-bodies.ts';

conformanceSuite(wranglerDev);
refusedBodiesSuite(wranglerDev);
refusedBodiesSuite(wranglerDevAsDeployed);
afterAll(stopWranglerDev);
