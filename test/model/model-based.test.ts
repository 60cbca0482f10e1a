import { inProcessHost, nodeHost } from '../support/hosts.ts';
import { modelBasedSuite } from './suite.ts';

modelBasedSuite(inProcessHost, { test: 30, fuzz: 4000 });
// Each run starts a server and talks HTTP to it: fewer runs keep `npm test` quick.
modelBasedSuite(nodeHost, { test: 25, fuzz: 1000 });
