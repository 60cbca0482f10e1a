import { join } from 'node:path';
import { ConfigError, loadConfig, parseProfile } from './load-config.ts';
import { createLogger } from './logger.ts';
import { PROJECT_ROOT } from './project-root.ts';
import { startNodeServer } from './server.ts';
import { exitOnSignals } from './shutdown.ts';

const profile = parseProfile(process.argv.slice(2));
if (typeof profile !== 'string') {
  console.error(profile.error);
  process.exit(2);
}

const configDir = process.env.TODO_CONFIG_DIR ?? join(PROJECT_ROOT, 'config');
let config;
try {
  config = loadConfig(configDir, profile, process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`The service did not start: its configuration is wrong.\n${error.message}`);
  process.exit(1);
}

const logger = createLogger(config.log);
const running = await startNodeServer(config, logger).catch((error: NodeJS.ErrnoException) => {
  if (error.syscall !== 'listen') throw error;
  const reason = error.code === 'EADDRINUSE' ? 'the port is in use' : error.message;
  console.error(
    `The service did not start: cannot listen on ${config.host}:${config.port}: ${reason}. ` +
      `Set PORT or HOST, or change ${join(configDir, `${profile}.yaml`)}.`,
  );
  process.exit(1);
});
// Signals are handled before readiness is announced: a supervisor that stops the service as
// soon as it reads this line must get a graceful shutdown, not the default kill.
exitOnSignals(running, logger);
logger.info(`listening on ${running.url}`, { profile });
