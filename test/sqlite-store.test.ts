import { conformanceSuite } from './conformance/index.ts';
import { inProcessHost, nodeHost, withSqlite } from './support/hosts.ts';

conformanceSuite(withSqlite(inProcessHost));
conformanceSuite(withSqlite(nodeHost));
