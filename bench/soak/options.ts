import { parseArgs } from 'node:util';
import { numberOption } from '../options.ts';

export interface SoakOptions {
  /** Traffic time, warm-up included; the run ends a few seconds after it. */
  readonly seconds: number;
  /** Keep-alive connections of API traffic, one request in flight on each. */
  readonly connections: number;
  /** Event clients kept connected, each leaving and coming back at random. */
  readonly clients: number;
}

export const SOAK_USAGE =
  'Usage: npm run soak -- [--seconds 60] [--connections 50] [--clients 200]';

/** Reads the command line; throws with a message naming the option that is wrong. */
export function readSoakOptions(args: readonly string[]): SoakOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      seconds: { type: 'string', default: '60' },
      connections: { type: 'string', default: '50' },
      clients: { type: 'string', default: '200' },
    },
  });
  return {
    seconds: numberOption(values.seconds, 'seconds', 10, 3600, true),
    connections: numberOption(values.connections, 'connections', 1, 500, true),
    clients: numberOption(values.clients, 'clients', 0, 2000, true),
  };
}
