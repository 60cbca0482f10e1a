import {
  APP_CONFIG_RULES,
  ConfigError,
  oneOf,
  setting,
  type AppConfig,
  type Setting,
} from '../../config.ts';

/** What the worker and its objects read from `[vars]`. */
export type WorkerConfig = Exclude<ReturnType<typeof configFromVars>, ConfigError>;

/** The fewest characters of `VIEW_KEY`: 32 random ones hold well over 128 bits. */
const VIEW_KEY_LENGTH = 32;

/** `limits.maxBodyBytes` as the variable that sets it: `LIMITS_MAX_BODY_BYTES`. */
export function varNameOf(group: string, key: string): string {
  return `${group}_${key}`.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();
}

/** `[vars]` as docs/configuration.md says, or the `ConfigError` that lists all that is wrong. */
export function configFromVars(vars: Readonly<Record<string, unknown>>) {
  const problems: string[] = [];
  /** The variable `name` as `rule` takes it, or its fallback where it is not set or is refused. */
  const read = <T>(name: string, rule: Setting<T>): T => {
    if (!Object.hasOwn(vars, name)) return rule.fallback;
    const given = vars[name];
    // The dashboard and `--var` set only strings.
    const value = typeof given === 'string' && /^-?\d+$/.test(given.trim()) ? Number(given) : given;
    if (rule.accepts(value)) return value;
    // As the author of `[vars]` wrote it: a string quoted, a number as it is.
    const shown = JSON.stringify(given) ?? String(given);
    problems.push(`[vars] ${name} must be ${rule.expected}; it is ${shown}.`);
    return rule.fallback;
  };
  const app: Record<string, Record<string, unknown>> = {};
  for (const [group, rules] of Object.entries(APP_CONFIG_RULES)) {
    app[group] = {};
    for (const [key, rule] of Object.entries(rules)) {
      app[group][key] = read(varNameOf(group, key), rule);
    }
  }
  // Where the default list is kept (docs/storage.md).
  const storage = read('STORAGE', setting(oneOf(['memory', 'sqlite']), 'sqlite'));
  const viewSecret = vars.VIEW_KEY;
  // The secret itself is never shown: error pages and logs are read by others.
  if (typeof viewSecret !== 'string' || viewSecret.length < VIEW_KEY_LENGTH) {
    const given = typeof viewSecret === 'string' ? `has ${viewSecret.length}` : 'is not set';
    problems.push(
      `The secret VIEW_KEY ${given}; it needs at least ${VIEW_KEY_LENGTH} characters, as ` +
        'view-only links are derived under it. Set it with `npx wrangler secret put VIEW_KEY` ' +
        '(locally, in .dev.vars), from `openssl rand -base64 32` for example.',
    );
  }
  if (problems.length > 0) return new ConfigError(problems);
  return { app: app as unknown as AppConfig, storage, viewSecret: viewSecret as string };
}
