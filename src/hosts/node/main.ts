import { join } from 'node:path';
import { ConfigError, loadConfig, parseProfile } from './load-config.ts';
import { helpText } from './help.ts';
import { createLogger } from './logger.ts';
import { PROJECT_ROOT } from './project-root.ts';
import { startNodeServer } from './server.ts';
import { openStorageFile, StorageFileError, type StorageFile } from './storage-file.ts';
import { exitOnSignals } from './shutdown.ts';

const args = process.argv.slice(2);
const configDir = process.env.TODO_CONFIG_DIR ?? join(PROJECT_ROOT, 'config');
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(helpText(configDir));
  process.exit(0);
}

const profile = parseProfile(args);
if (typeof profile !== 'string') {
  console.error(`${profile.error} See --help.`);
  process.exit(2);
}

let config;
try {
  config = loadConfig(configDir, profile, process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`The service did not start: its configuration is wrong.\n${error.message}`);
  process.exit(1);
}

const logger = createLogger(config.log);
let storage: StorageFile | undefined;
try {
  storage = openStorageFile(config);
} catch (error) {
  if (!(error instanceof StorageFileError)) throw error;
  logger.fatal(
    `The service did not start: ${error.message}. ` +
      `Set STORAGE_FILE, or change storage.file in ${join(configDir, `${profile}.yaml`)}.`,
  );
  process.exit(1);
}
const running = await startNodeServer(config, logger, storage?.stores).catch(
  (error: NodeJS.ErrnoException) => {
    if (error.syscall !== 'listen') throw error;
    const reason = error.code === 'EADDRINUSE' ? 'the port is in use' : error.message;
    logger.fatal(
      `The service did not start: cannot listen on ${config.host}:${config.port}: ${reason}. ` +
        `Set PORT or HOST, or change ${join(configDir, `${profile}.yaml`)}.`,
    );
    process.exit(1);
  },
);
// Signals are handled before readiness is announced: a supervisor that stops the service as
// soon as it reads this line must get a graceful shutdown, not the default kill.
exitOnSignals(
  {
    close: async () => {
      await running.close();
      await storage?.close();
    },
  },
  logger,
);
logger.info(
  { profile, url: running.url, storage: storage?.file ?? 'memory' },
  `listening on ${running.url}`,
);
