import type { TestHost } from '../support/hosts.ts';
import type { Aspect } from './runner.ts';

/**
 * What the model can check on `host`. The events are replayed once the service's stopping has
 * ended every stream; where stopping leaves named lists' streams open (workerd), the
 * conformance suite's event tests hold the stream to its rules.
 */
export function aspectsFor(host: TestHost): readonly Aspect[] {
  return host.stopKeepsNamedStreams ? ['answers', 'list'] : ['answers', 'list', 'events'];
}
