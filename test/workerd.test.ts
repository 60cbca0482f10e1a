import { afterAll } from 'vitest';
import { conformanceSuite } from './conformance/index.ts';
import { onNamedList } from './support/hosts.ts';
import { stopWorkerd, workerd } from './support/workerd-host.ts';

conformanceSuite(workerd);
conformanceSuite(onNamedList(workerd));
afterAll(stopWorkerd);
