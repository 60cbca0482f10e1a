/** What one configuration value must be, said the way an error message needs it. */
export interface Rule<T = unknown> {
  readonly expected: string;
  accepts(value: unknown): value is T;
}

/** A rule with the value a setting takes where none is given. */
export type Setting<T = unknown> = Rule<T> & { readonly fallback: T };

export const setting = <T>(rule: Rule<T>, fallback: T): Setting<T> => ({ ...rule, fallback });

export type Settings = { readonly [key: string]: Setting | Settings };

/** The values a tree of settings takes, each of the type its rule accepts. */
export type ConfigOf<Tree> = {
  readonly [K in keyof Tree]: Tree[K] extends Rule<infer T> ? T : ConfigOf<Tree[K]>;
};

export function defaultsOf<Tree extends Settings>(settings: Tree): ConfigOf<Tree> {
  const entries = Object.entries(settings).map(([key, node]) => [
    key,
    typeof node.accepts === 'function' ? node.fallback : defaultsOf(node as Settings),
  ]);
  return Object.fromEntries(entries) as ConfigOf<Tree>;
}

/** Why the service did not start; every line names the file or variable and the key. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

export function integer(min: number, max = Number.MAX_SAFE_INTEGER): Rule<number> {
  return {
    expected:
      max === Number.MAX_SAFE_INTEGER
        ? `an integer of at least ${min}`
        : `an integer from ${min} to ${max}`,
    accepts: (value): value is number =>
      Number.isInteger(value) && (value as number) >= min && (value as number) <= max,
  };
}

export function oneOf<const C extends readonly string[]>(choices: C): Rule<C[number]> {
  return {
    expected: `one of ${choices.join(', ')}`,
    accepts: (value): value is C[number] => choices.includes(value as string),
  };
}

/** Timers hold at most 2^31 - 1 ms; a longer one silently fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The handler's settings, checked alike whichever host reads them (docs/configuration.md). */
export const APP_CONFIG_RULES = {
  limits: {
    maxBodyBytes: setting(integer(1), 16384),
    maxTitleLength: setting(integer(1), 1000),
    maxItems: setting(integer(1), 10000),
    listsPerMinute: setting(integer(1), 30),
    idempotencyKeyHours: setting(integer(1), 24),
  },
  sse: {
    heartbeatSeconds: setting(integer(1, Math.floor(MAX_TIMER_MS / 1000)), 15),
    replayEvents: setting(integer(0), 1000),
    maxClients: setting(integer(1), 10000),
    maxClientsPerAddress: setting(integer(1), 50),
  },
};

/** What the handler needs to know, the same on every host. */
export type AppConfig = ConfigOf<typeof APP_CONFIG_RULES>;

/** The documented defaults (docs/configuration.md); `config/prod.yaml` keeps them. */
export const DEFAULT_APP_CONFIG: AppConfig = defaultsOf(APP_CONFIG_RULES);
