import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { parse as parseYaml } from 'yaml';
import {
  APP_CONFIG_RULES,
  ConfigError,
  defaultsOf,
  integer,
  MAX_TIMER_MS,
  oneOf,
  setting,
  type ConfigOf,
  type Rule,
  type Settings,
} from '../../config.ts';
import { DEFAULT_MAX_LISTS } from '../../app.ts';

const nonEmptyString: Rule<string> = {
  expected: 'a non-empty string',
  accepts: (value): value is string => typeof value === 'string' && value.trim() !== '',
};

// Never read unless named: a client could set it.
const headerOrNothing: Rule<string | null> = {
  expected: 'a header name, such as X-Forwarded-For, or null to count the connection’s address',
  accepts: (value): value is string | null =>
    value === null || (typeof value === 'string' && /^[\w!#$%&'*+.^`|~-]+$/.test(value)),
};

const fileOrNothing: Rule<string | null> = {
  expected: 'a file path, or null to keep the lists in memory only',
  accepts: (value): value is string | null => value === null || nonEmptyString.accepts(value),
};

const milliseconds = (min: number) => integer(min, MAX_TIMER_MS);

/** The handler's settings and the Node host's, each key as docs/configuration.md describes it. */
const NODE_CONFIG_RULES = {
  host: setting(nonEmptyString, '0.0.0.0'),
  port: setting(integer(0, 65535), 8080),
  log: {
    level: setting(oneOf(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
    format: setting(oneOf(['pretty', 'json']), 'json'),
  },
  storage: { file: setting(fileOrNothing, null) },
  limits: { ...APP_CONFIG_RULES.limits, maxLists: setting(integer(1), DEFAULT_MAX_LISTS) },
  sse: APP_CONFIG_RULES.sse,
  server: {
    headersTimeoutMs: setting(milliseconds(1), 10000),
    requestTimeoutMs: setting(milliseconds(1), 30000),
    keepAliveTimeoutMs: setting(milliseconds(1), 5000),
    maxHeaderBytes: setting(integer(1024), 16384),
    drainDelayMs: setting(milliseconds(0), 0),
    shutdownTimeoutMs: setting(milliseconds(0), 10000),
    clientAddressHeader: setting(headerOrNothing, null),
  },
};

export type NodeConfig = ConfigOf<typeof NODE_CONFIG_RULES>;

export const DEFAULT_NODE_CONFIG: NodeConfig = defaultsOf(NODE_CONFIG_RULES);

const UNREADABLE: Readonly<Record<string, string>> = {
  ENOENT:
    'does not exist. Each profile (dev, prod) needs its file; TODO_CONFIG_DIR names another folder.',
  EISDIR: 'is a folder, not a file.',
};

/** `file` over the defaults, then `PORT`, `HOST` and `STORAGE_FILE`: every problem at once. */
export function loadConfig(file: string, env: NodeJS.ProcessEnv): NodeConfig {
  let text: string;
  let document: unknown;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    throw new ConfigError([`${file}: ${UNREADABLE[code!] ?? `cannot be read (${code}).`}`]);
  }
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new ConfigError([`${file}: not valid YAML: ${(error as Error).message}`]);
  }

  const refused = new Map<string, string>();
  const merged = mergeChecked(NODE_CONFIG_RULES, document ?? {}, '', refused);
  const { headersTimeoutMs, requestTimeoutMs } = merged.server;
  const problems = [...refused].map(
    ([key, problem]) => `${file}: ${key ? `key "${key}"` : 'the file'} ${problem}`,
  );
  // A timeout the file leaves out is compared at its default; a refused one is not, as that
  // would quote a value the file does not give.
  const timeoutsAccepted =
    !refused.has('server.headersTimeoutMs') && !refused.has('server.requestTimeoutMs');
  if (timeoutsAccepted && headersTimeoutMs > requestTimeoutMs) {
    problems.push(
      `${file}: key "server.headersTimeoutMs" (${headersTimeoutMs}) must not exceed "server.requestTimeoutMs" (${requestTimeoutMs}).`,
    );
  }

  const { PORT, HOST, STORAGE_FILE } = env;
  if (PORT !== undefined && !(/^\d{1,5}$/.test(PORT) && Number(PORT) <= 65535)) {
    problems.push(
      `environment variable PORT must be a port number from 0 to 65535; it is "${PORT}".`,
    );
  }
  if (HOST?.trim() === '') problems.push('environment variable HOST must not be empty.');
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...merged,
    ...(PORT !== undefined && { port: Number(PORT) }),
    ...(HOST !== undefined && { host: HOST }),
    // Set and empty means memory, so a deployment can switch storage off without editing YAML.
    ...(STORAGE_FILE !== undefined && { storage: { file: STORAGE_FILE || null } }),
  };
}

/** `value` over the defaults, each key checked by its rule; what is refused goes into `refused`. */
function mergeChecked<Tree extends Settings>(
  settings: Tree,
  value: unknown,
  prefix: string,
  refused: Map<string, string>,
): ConfigOf<Tree> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    refused.set(prefix, 'must be a mapping of keys to values.');
    return defaultsOf(settings);
  }
  const result: Record<string, unknown> = defaultsOf(settings);
  for (const [key, given] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const rule = Object.hasOwn(settings, key) ? settings[key] : undefined;
    if (rule === undefined) {
      refused.set(
        path,
        `is not a setting; known keys${prefix ? ` under "${prefix}"` : ''}: ${Object.keys(settings).join(', ')}.`,
      );
    } else if (typeof rule.accepts !== 'function') {
      result[key] = mergeChecked(rule as Settings, given, path, refused);
    } else if (rule.accepts(given)) {
      result[key] = given;
    } else {
      // As the YAML author would recognise it: `.inf` as Infinity, a string quoted.
      const shown =
        typeof given === 'string'
          ? JSON.stringify(given)
          : inspect(given, { depth: 1, breakLength: Infinity });
      refused.set(path, `must be ${rule.expected}; it is ${shown}.`);
    }
  }
  return result as ConfigOf<Tree>;
}
