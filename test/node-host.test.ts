import { conformanceSuite } from './conformance/index.ts';
import { nodeHost, onNamedList } from './support/hosts.ts';

conformanceSuite(nodeHost);
conformanceSuite(onNamedList(nodeHost));
