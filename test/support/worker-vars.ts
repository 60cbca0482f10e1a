import { varNameOf } from '../../src/hosts/workerd/vars.ts';
import type { ServiceOptions } from './hosts.ts';

/** `limits` and `sse` as the worker's `[vars]` that set them. */
export function varsOf(options: ServiceOptions): Record<string, number> {
  const vars: Record<string, number> = {};
  for (const [group, values] of Object.entries({ limits: options.limits, sse: options.sse })) {
    for (const [key, value] of Object.entries(values ?? {})) vars[varNameOf(group, key)] = value;
  }
  return vars;
}
