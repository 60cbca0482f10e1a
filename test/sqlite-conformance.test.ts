import { conformanceSuite } from './conformance/index.ts';
import { inProcessHost, nodeHost, onNamedList, withSqlite } from './support/hosts.ts';

conformanceSuite(withSqlite(inProcessHost));
conformanceSuite(onNamedList(withSqlite(inProcessHost)));
conformanceSuite(withSqlite(nodeHost));
conformanceSuite(onNamedList(withSqlite(nodeHost)));
