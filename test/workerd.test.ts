import { afterAll } from 'vitest';
import { conformanceSuite } from './conformance/index.ts';
import { hostileInputSuite, WORKERD_WIRE } from './conformance/hostile-input.ts';
import { onNamedList } from './support/hosts.ts';
import { stopWorkerd, workerd } from './support/workerd-host.ts';

conformanceSuite(workerd);
conformanceSuite(onNamedList(workerd));
hostileInputSuite(workerd, WORKERD_WIRE);
afterAll(stopWorkerd);
