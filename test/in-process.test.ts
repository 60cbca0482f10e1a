import { conformanceSuite } from './conformance/index.ts';
import { inProcessHost } from './support/hosts.ts';

conformanceSuite(inProcessHost);
