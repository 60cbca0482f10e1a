import { conformanceSuite } from './conformance/index.ts';
import { nodeHost } from './support/hosts.ts';

conformanceSuite(nodeHost);
