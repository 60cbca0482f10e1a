import { parseArgs } from 'node:util';
import { SERVER_KINDS, type ServerKind } from './children.ts';
import { SCENARIOS, type Scenario } from './scenarios.ts';

const SECTIONS = ['throughput', 'fan-out', 'lists', 'storage'] as const;
type Section = (typeof SECTIONS)[number];

export interface BenchOptions {
  readonly turns: number;
  readonly sliceSeconds: number;
  readonly warmUpSeconds: number;
  readonly rounds: number;
  readonly sections: readonly Section[];
  readonly scenarios: readonly Scenario[];
  readonly servers: readonly ServerKind[];
  /** With `--ab`, the dist/ folders of the two builds, A and B. */
  readonly builds: readonly [string, string] | undefined;
  readonly cpuProfile: boolean;
  readonly pin: boolean;
}

const AB_SCENARIOS = ['get-one', 'post', 'put'];

export const USAGE = `npm run bench [-- options]
npm run bench:ab -- <build A> <build B> [options]   (the same as npm run bench -- --ab A B)

  --turns N        turns of throughput, lists and storage: the servers are up at once and
                   the load takes turns between them, a slice each a turn (default 8)
  --duration S     seconds a slice (default 1)
  --warmup S       seconds of warm-up for each server first (default 1)
  --rounds N       rounds, each on new processes, of fan-out, lists' memory and --ab (default 3)
  --only A,B       sections (${SECTIONS.join(', ')}) and/or throughput scenarios
                   (${SCENARIOS.map((scenario) => scenario.id).join(', ')})
  --servers A,B    of ${SERVER_KINDS.join(', ')} (default all; ours is always one)
  --ab             throughput of two builds of the Node host, each the dist/ folder of a
                   checkout after npm run build, run as node dist/hosts/node/main.js with the
                   prod profile; B against A (default scenarios ${AB_SCENARIOS.join(', ')})
  --cpu-prof       a CPU profile of every server child into bench/results/profiles/
  --no-pin         do not pin the servers to core 1 and the load to core 0`;

function count(text: string, name: string, min: number, max: number) {
  const value = Number(text);
  if (value >= min && value <= max) return value;
  throw new Error(`--${name} takes a number from ${min} to ${max}, not "${text}".`);
}

/** The names in a comma-separated `text`; throws if `--option` does not know one. */
function refuseUnknown(option: string, text: string | undefined, known: readonly string[]) {
  const names = (text ?? '').split(',').flatMap((part) => part.trim() || []);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new Error(`--${option} does not know ${unknown.join(', ')}.`);
  return names;
}

/** Reads the command line; throws with a message naming the option that is wrong. */
export function readOptions(args: readonly string[]): BenchOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      turns: { type: 'string', default: '8' },
      duration: { type: 'string', default: '1' },
      warmup: { type: 'string', default: '1' },
      rounds: { type: 'string', default: '3' },
      only: { type: 'string' },
      servers: { type: 'string' },
      ab: { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      'no-pin': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  if (values.ab !== positionals.length > 0 || (values.ab && positionals.length !== 2)) {
    throw new Error('--ab takes two builds, A and B, and nothing else takes a build.');
  }

  const only = refuseUnknown('only', values.only, [...SECTIONS, ...SCENARIOS.map((s) => s.id)]);
  const picked = SCENARIOS.filter((scenario) => only.includes(scenario.id));
  const scenarios =
    picked.length > 0 && !only.includes('throughput')
      ? picked
      : values.ab
        ? SCENARIOS.filter((scenario) => AB_SCENARIOS.includes(scenario.id))
        : SCENARIOS;
  const sections = values.ab
    ? (['throughput'] as const)
    : SECTIONS.filter(
        (section) =>
          only.length === 0 ||
          only.includes(section) ||
          (section === 'throughput' && picked.length > 0),
      );

  const servers = refuseUnknown('servers', values.servers, SERVER_KINDS);
  return {
    turns: Math.round(count(values.turns, 'turns', 1, 50)),
    sliceSeconds: count(values.duration, 'duration', 1, 60),
    warmUpSeconds: count(values.warmup, 'warmup', 0, 30),
    rounds: Math.round(count(values.rounds, 'rounds', 1, 20)),
    sections,
    scenarios,
    servers: values.ab
      ? ['A', 'B']
      : SERVER_KINDS.filter(
          (kind) => kind === 'ours' || servers.length === 0 || servers.includes(kind),
        ),
    builds: values.ab ? [positionals[0]!, positionals[1]!] : undefined,
    cpuProfile: values['cpu-prof'],
    pin: !values['no-pin'],
  };
}
