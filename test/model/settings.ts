import type { ModelLimits } from './model.ts';

/** Small limits, so that a short sequence reaches each of them. */
export const MODEL_LIMITS: ModelLimits = { maxBodyBytes: 200, maxTitleLength: 12, maxItems: 5 };

/** `limits.maxLists` on the hosts that bound the named lists (`TestHost.boundsLists`). */
export const MODEL_MAX_LISTS = 3;

/** `npm test` replays the same runs every time; `npm run fuzz` sets MODEL_FUZZ=1. */
const FIXED_SEED = 20260606;

/** How many runs a host gets by default: its share of `npm test`'s time, and of a fuzz run's. */
export interface RunBudget {
  readonly test: number;
  readonly fuzz: number;
}

export interface ModelSettings {
  readonly fuzz: boolean;
  readonly seed: number;
  readonly numRuns: number;
  readonly maxCommands: number;
  /** Stops starting runs after this long; a run cut short is not a failure. */
  readonly timeLimitMs?: number;
  /** fast-check's counterexample path, to replay one failure without searching again. */
  readonly path?: string;
  readonly replayPath?: string;
}

/**
 * Read from the environment (test/model/README.md): MODEL_SEED, MODEL_RUNS, MODEL_COMMANDS,
 * MODEL_SECONDS, MODEL_PATH and MODEL_REPLAY_PATH override what the mode chooses.
 */
export function modelSettings(budget: RunBudget, env = process.env): ModelSettings {
  const fuzz = env.MODEL_FUZZ === '1';
  const integer = (name: string): number | undefined => {
    const value = env[name];
    if (value === undefined || value === '') return undefined;
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed)) throw new Error(`${name} must be an integer, not ${value}`);
    return parsed;
  };
  const seconds = integer('MODEL_SECONDS');
  return {
    fuzz,
    seed: integer('MODEL_SEED') ?? (fuzz ? Math.floor(Math.random() * 2 ** 31) : FIXED_SEED),
    numRuns:
      integer('MODEL_RUNS') ?? (seconds !== undefined ? 1e9 : fuzz ? budget.fuzz : budget.test),
    maxCommands: integer('MODEL_COMMANDS') ?? (fuzz ? 60 : 25),
    timeLimitMs: seconds === undefined ? undefined : seconds * 1000,
    path: env.MODEL_PATH || undefined,
    replayPath: env.MODEL_REPLAY_PATH || undefined,
  };
}
