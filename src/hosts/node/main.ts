import { constants } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../config.ts';
import { loadConfig } from './node-config.ts';
import { createLogger } from './logger.ts';
import { PROJECT_ROOT } from './file-assets.ts';
import { startNodeServer, type RunningServer } from './server.ts';
import { openStorageAt } from './storage-file.ts';

const PROFILES = ['dev', 'prod'];
const args = process.argv.slice(2);
const configDir = process.env.TODO_CONFIG_DIR ?? join(PROJECT_ROOT, 'config');
if (args.includes('--help') || args.includes('-h')) {
  console.log(`Usage: npm start [-- <profile>]     (or: node dist/hosts/node/main.js [<profile>])

Serves the to-do API, its event stream and the page on one port.

Profiles (default prod):
${PROFILES.map((profile) => `  ${profile.padEnd(6)}${configDir}/${profile}.yaml\n        ${summaryOf(configDir, profile)}`).join('\n')}

Environment:
  PORT             the port to listen on, over the profile's "port" (0 picks a free one)
  HOST             the address to listen on, over the profile's "host"
  STORAGE_FILE     a SQLite file that keeps the lists across restarts, over "storage.file"
                   (empty: memory only, the default)
  TODO_CONFIG_DIR  the folder that holds the profiles' YAML files (now ${configDir})

Every key of the YAML files is described in docs/configuration.md.`);
  process.exit(0);
}

const profile = args[0] ?? 'prod';
if (args.length > 1 || !PROFILES.includes(profile)) {
  console.error(
    `Unknown start argument "${args.join(' ')}". Choose one profile: ${PROFILES.join(', ')} (default prod). See --help.`,
  );
  process.exit(2);
}
const profileFile = join(configDir, `${profile}.yaml`);

let config;
try {
  config = loadConfig(profileFile, process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`The service did not start: its configuration is wrong.\n${error.message}`);
  process.exit(1);
}

const logger = createLogger(config.log);
let storage: ReturnType<typeof openStorageAt> | undefined;
let running: RunningServer;
try {
  // A relative storage.file is relative to the working folder.
  if (config.storage.file !== null) storage = openStorageAt(resolve(config.storage.file));
  running = await startNodeServer(config, logger, storage?.stores, storage?.viewSecret);
} catch (error) {
  const { code, syscall, message } = error as NodeJS.ErrnoException;
  // Asked for and not opened: the error is the storage file's, and says why.
  if (config.storage.file !== null && storage === undefined) {
    logger.fatal(
      `The service did not start: ${message.replace(/\.?$/, '.')} ` +
        `Set STORAGE_FILE, or change storage.file in ${profileFile}.`,
    );
  } else if (syscall === 'listen') {
    const reason = code === 'EADDRINUSE' ? 'the port is in use' : message;
    logger.fatal(
      `The service did not start: cannot listen on ${config.host}:${config.port}: ${reason}. ` +
        `Set PORT or HOST, or change ${profileFile}.`,
    );
  } else {
    // The lists kept in the storage file could not be loaded, say.
    logger.fatal({ err: error }, `The service did not start: ${message}`);
  }
  process.exit(1);
}

// Signals are handled before readiness is announced: a supervisor that stops the service as
// soon as it reads this line must get a graceful shutdown, not the default kill. A second signal
// exits at once, for the operator who will not wait.
let closing = false;
const onSignal = async (signal: 'SIGINT' | 'SIGTERM') => {
  if (closing) {
    logger.warn(`${signal} again: exiting without waiting`);
    process.exit(128 + constants.signals[signal]);
  }
  closing = true;
  logger.info(`${signal}: shutting down`);
  try {
    await running.close();
    await storage?.close();
  } catch (error) {
    logger.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
  logger.info('stopped');
  process.exit(0);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
logger.info(
  { profile, url: running.url, storage: storage?.file ?? 'memory' },
  `listening on ${running.url}`,
);

function summaryOf(configDir: string, profile: string): string {
  try {
    const { host, port, log } = loadConfig(join(configDir, `${profile}.yaml`), {});
    const lines =
      log.format === 'json' ? 'JSON lines (pino)' : 'short readable lines (pino-pretty)';
    return `listens on ${host}:${port} and logs ${lines} at the ${log.level} level`;
  } catch (error) {
    return `cannot be used: ${(error as Error).message.split('\n')[0]}`;
  }
}
