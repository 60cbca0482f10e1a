import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { ConfigError, type Rule } from '../../config.ts';
import { DEFAULT_NODE_CONFIG, NODE_CONFIG_RULES, type NodeConfig } from './node-config.ts';

export const PROFILES = ['dev', 'prod'] as const;
export type Profile = (typeof PROFILES)[number];

/** The start argument: none means `prod`; anything but one known profile is an error. */
export function parseProfile(args: readonly string[]): Profile | { error: string } {
  if (args.length === 0) return 'prod';
  const [given] = args;
  if (args.length === 1 && PROFILES.includes(given as Profile)) return given as Profile;
  return {
    error: `Unknown start argument "${args.join(' ')}". Choose one profile: ${PROFILES.join(', ')} (default prod).`,
  };
}

/**
 * Reads `<configDir>/<profile>.yaml` over the defaults, then `PORT`, `HOST` and `STORAGE_FILE`
 * from `env`. Every problem found is reported at once, and nothing is returned half-checked.
 */
export function loadConfig(configDir: string, profile: string, env: NodeJS.ProcessEnv): NodeConfig {
  const file = join(configDir, `${profile}.yaml`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError([`${file}: ${unreadable((error as NodeJS.ErrnoException).code)}`]);
  }

  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new ConfigError([`${file}: not valid YAML: ${(error as Error).message}`]);
  }

  const problems: string[] = [];
  const refusedKeys = new Set<string>();
  const merged = mergeChecked(
    DEFAULT_NODE_CONFIG,
    NODE_CONFIG_RULES,
    document ?? {},
    '',
    (key, problem) => {
      refusedKeys.add(key);
      problems.push(`${file}: ${key ? `key "${key}"` : 'the file'} ${problem}`);
    },
  ) as NodeConfig;

  // A timeout the file leaves out is in force at its default, and is compared. A refused one
  // only stands at its default in `merged`: compared, it would quote a value the file does not
  // give.
  const { headersTimeoutMs, requestTimeoutMs } = merged.server;
  const timeoutsAccepted =
    !refusedKeys.has('server.headersTimeoutMs') && !refusedKeys.has('server.requestTimeoutMs');
  if (timeoutsAccepted && headersTimeoutMs > requestTimeoutMs) {
    problems.push(
      `${file}: key "server.headersTimeoutMs" (${headersTimeoutMs}) must not exceed "server.requestTimeoutMs" (${requestTimeoutMs}).`,
    );
  }

  const overrides = readEnvOverrides(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return { ...merged, ...overrides };
}

function unreadable(code: string | undefined): string {
  if (code === 'ENOENT') {
    return 'does not exist. Each profile (dev, prod) needs its file; TODO_CONFIG_DIR names another folder.';
  }
  if (code === 'EISDIR') return 'is a folder, not a file.';
  return `cannot be read (${code}).`;
}

/** A value as the YAML author would recognise it: `.inf` as Infinity, a string quoted. */
function shown(value: unknown): string {
  return typeof value === 'string'
    ? JSON.stringify(value)
    : inspect(value, { depth: 1, breakLength: Infinity });
}

type Rules = { readonly [key: string]: Rule | Rules };

function isRule(rule: Rule | Rules): rule is Rule {
  return typeof (rule as Rule).accepts === 'function';
}

function mergeChecked(
  defaults: object,
  rules: Rules,
  value: unknown,
  prefix: string,
  report: (key: string, problem: string) => void,
): object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    report(prefix, 'must be a mapping of keys to values.');
    return defaults;
  }
  const result: Record<string, unknown> = { ...defaults };
  for (const [key, given] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const rule = Object.hasOwn(rules, key) ? rules[key] : undefined;
    if (rule === undefined) {
      report(
        path,
        `is not a setting; known keys${prefix ? ` under "${prefix}"` : ''}: ${Object.keys(rules).join(', ')}.`,
      );
    } else if (isRule(rule)) {
      if (rule.accepts(given)) result[key] = given;
      else report(path, `must be ${rule.expected}; it is ${shown(given)}.`);
    } else {
      result[key] = mergeChecked(
        (defaults as Record<string, object>)[key]!,
        rule,
        given,
        path,
        report,
      );
    }
  }
  return result;
}

function readEnvOverrides(env: NodeJS.ProcessEnv, problems: string[]): Partial<NodeConfig> {
  const overrides: { host?: string; port?: number; storage?: NodeConfig['storage'] } = {};
  // Set and empty means memory, so a deployment can switch storage off without editing YAML.
  if (env.STORAGE_FILE !== undefined) overrides.storage = { file: env.STORAGE_FILE || null };
  if (env.PORT !== undefined) {
    const port = /^\d{1,5}$/.test(env.PORT) ? Number(env.PORT) : NaN;
    if (port <= 65535) overrides.port = port;
    else
      problems.push(
        `environment variable PORT must be a port number from 0 to 65535; it is "${env.PORT}".`,
      );
  }
  if (env.HOST !== undefined) {
    if (env.HOST.trim() !== '') overrides.host = env.HOST;
    else problems.push('environment variable HOST must not be empty.');
  }
  return overrides;
}
