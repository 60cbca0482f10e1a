import { conformanceSuite } from './conformance/index.ts';
import { hostileInputSuite, NODE_WIRE } from './conformance/hostile-input.ts';
import { nodeHost, onNamedList } from './support/hosts.ts';

conformanceSuite(nodeHost);
conformanceSuite(onNamedList(nodeHost));
hostileInputSuite(nodeHost, NODE_WIRE);
