import { parseArgs } from 'node:util';
import { SERVER_KINDS, type ServerKind } from './children.ts';
import { SCENARIOS, type Scenario } from './scenarios.ts';

export const SECTIONS = ['throughput', 'fan-out', 'scaling', 'lists', 'storage'] as const;
export type Section = (typeof SECTIONS)[number];

export interface BenchOptions {
  readonly rounds: number;
  readonly seconds: number;
  readonly warmUpSeconds: number;
  readonly sections: readonly Section[];
  readonly scenarios: readonly Scenario[];
  readonly servers: readonly ServerKind[];
  readonly cpuProfile: boolean;
  readonly pin: boolean;
}

export const USAGE = `npm run bench [-- options]
  --rounds N       rounds, each server taking its turn in each (default 3)
  --duration S     seconds each measurement runs (default 3), after a warm-up
  --warmup S       seconds of warm-up before each measurement (default 1)
  --only A,B       sections (${SECTIONS.join(', ')}) and/or throughput scenarios
                   (${SCENARIOS.map((scenario) => scenario.id).join(', ')})
  --servers A,B    of ${SERVER_KINDS.join(', ')} (default all; ours is always one)
  --cpu-prof       a CPU profile of every server child into bench/results/profiles/
  --no-pin         do not pin the servers to core 1 and the load to core 0`;

/** The number `text` gives `--name`, from `min` to `max`; throws, naming the option, if not. */
export function numberOption(text: string, name: string, min: number, max: number, whole = false) {
  const value = Number(text);
  if (
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (whole && !Number.isInteger(value))
  ) {
    const kind = whole ? 'a whole number' : 'a number';
    throw new Error(`--${name} takes ${kind} from ${min} to ${max}, not "${text}".`);
  }
  return value;
}

const list = (text: string | undefined) =>
  text === undefined
    ? []
    : text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);

/** Reads the command line; throws with a message naming the option that is wrong. */
export function readOptions(args: readonly string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: [...args],
    options: {
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '1' },
      only: { type: 'string' },
      servers: { type: 'string' },
      'cpu-prof': { type: 'boolean', default: false },
      'no-pin': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';

  const only = list(values.only);
  const known = new Set<string>([...SECTIONS, ...SCENARIOS.map((scenario) => scenario.id)]);
  const unknown = only.filter((name) => !known.has(name));
  if (unknown.length > 0) throw new Error(`--only does not know ${unknown.join(', ')}.`);
  const scenarios = SCENARIOS.filter((scenario) => only.includes(scenario.id));
  const sections = SECTIONS.filter(
    (section) =>
      only.length === 0 ||
      only.includes(section) ||
      (section === 'throughput' && scenarios.length > 0),
  );

  const servers = list(values.servers);
  const wrong = servers.filter((name) => !(SERVER_KINDS as readonly string[]).includes(name));
  if (wrong.length > 0) throw new Error(`--servers does not know ${wrong.join(', ')}.`);

  return {
    rounds: Math.round(numberOption(values.rounds, 'rounds', 1, 20)),
    seconds: numberOption(values.duration, 'duration', 1, 60),
    warmUpSeconds: numberOption(values.warmup, 'warmup', 0, 30),
    sections,
    scenarios: scenarios.length > 0 && !only.includes('throughput') ? scenarios : SCENARIOS,
    servers: SERVER_KINDS.filter(
      (kind) => kind === 'ours' || servers.length === 0 || servers.includes(kind),
    ),
    cpuProfile: values['cpu-prof'],
    pin: !values['no-pin'],
  };
}
