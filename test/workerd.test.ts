import { afterAll } from 'vitest';
import { conformanceSuite } from './conformance/index.ts';
import { stopWorkerd, workerdHost } from './support/workerd-host.ts';

conformanceSuite(workerdHost);
afterAll(stopWorkerd);
