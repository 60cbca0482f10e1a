import { parseArgs } from 'node:util';

export interface SoakOptions {
  /** Traffic time, warm-up included; the run ends a few seconds after it. */
  readonly seconds: number;
  /** Keep-alive connections of API traffic, one request in flight on each. */
  readonly connections: number;
  /** Event clients kept connected, each leaving and coming back at random. */
  readonly clients: number;
}

const RANGES: Readonly<Record<keyof SoakOptions, readonly [number, number]>> = {
  seconds: [10, 3600],
  connections: [1, 500],
  clients: [0, 2000],
};

/** The command line's options, or a message saying which one is wrong. */
export function parseSoakOptions(args: readonly string[]): SoakOptions | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        seconds: { type: 'string', default: '60' },
        connections: { type: 'string', default: '50' },
        clients: { type: 'string', default: '200' },
      },
    }));
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const options: Record<string, number> = {};
  for (const [name, [low, high]] of Object.entries(RANGES)) {
    const value = Number(values[name as keyof SoakOptions]);
    if (!Number.isInteger(value) || value < low || value > high) {
      return { error: `--${name} takes a whole number from ${low} to ${high}.` };
    }
    options[name] = value;
  }
  return options as unknown as SoakOptions;
}
