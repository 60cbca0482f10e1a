import { describe } from 'vitest';
import type { TestHost } from '../support/hosts.ts';
import { checkedAgainstOpenApi } from '../support/openapi-check.ts';
import { badBodiesSuite } from './bad-bodies.ts';
import { bodyChecksSuite } from './body-checks.ts';
import { eventClientsSuite } from './events-clients.ts';
import { eventsResumeSuite } from './events-resume.ts';
import { eventsSuite } from './events.ts';
import { clientLimitsSuite } from './client-limits.ts';
import { configuredLimitsSuite } from './configured-limits.ts';
import { corsSuite } from './cors.ts';
import { errorsSuite, unexpectedFailuresSuite } from './errors.ts';
import { httpDetailsSuite } from './http-details.ts';
import { idempotencySuite } from './idempotency.ts';
import { idempotencyInFlightSuite } from './idempotency-in-flight.ts';
import { idempotentListsSuite } from './idempotent-lists.ts';
import { itemsSuite } from './items.ts';
import { listDeletesSuite } from './list-deletes.ts';
import { listFailuresSuite } from './list-failures.ts';
import { listStreamsSuite } from './list-streams.ts';
import { listsSuite } from './lists.ts';
import { operationsSuite } from './operations.ts';
import { otherRoutesSuite } from './other-routes.ts';
import { viewLinksSuite } from './view-links.ts';

/**
 * The whole contract, written once; each host's test file runs it against that host. Every
 * answer is also held to the OpenAPI document the service publishes; `statusesSeen`, if given,
 * collects the documented statuses those answers showed.
 */
export function conformanceSuite(unchecked: TestHost, statusesSeen?: Set<string>): void {
  const host = checkedAgainstOpenApi(unchecked, statusesSeen);
  describe(host.name, () => {
    itemsSuite(host);
    badBodiesSuite(host);
    bodyChecksSuite(host);
    configuredLimitsSuite(host);
    httpDetailsSuite(host);
    corsSuite(host);
    errorsSuite(host);
    if (host.injects) unexpectedFailuresSuite(host);
    eventsSuite(host);
    eventsResumeSuite(host);
    eventClientsSuite(host);
    otherRoutesSuite(host);
    operationsSuite(host);
    idempotencySuite(host);
    if (host.injects) idempotencyInFlightSuite(host);
    // Lists are made from the default list's service, where no list exists yet.
    if (!host.onNamedList) {
      listsSuite(host);
      listStreamsSuite(host);
      listDeletesSuite(host);
      idempotentListsSuite(host);
      viewLinksSuite(host);
      clientLimitsSuite(host);
      if (host.injects) listFailuresSuite(host);
    }
  });
}
