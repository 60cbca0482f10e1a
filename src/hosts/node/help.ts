import { loadConfig, PROFILES, type Profile } from './load-config.ts';

/** What `npm start -- --help` prints: how to start the service and what it reads. */
export function helpText(configDir: string): string {
  return `Usage: npm start [-- <profile>]     (or: node dist/hosts/node/main.js [<profile>])

Serves the to-do API, its event stream and the page on one port.

Profiles (default prod):
${PROFILES.map((profile) => `  ${profile.padEnd(6)}${configDir}/${profile}.yaml\n        ${summaryOf(configDir, profile)}`).join('\n')}

Environment:
  PORT             the port to listen on, over the profile's "port" (0 picks a free one)
  HOST             the address to listen on, over the profile's "host"
  STORAGE_FILE     a SQLite file that keeps the lists across restarts, over "storage.file"
                   (empty: memory only, the default)
  TODO_CONFIG_DIR  the folder that holds the profiles' YAML files (now ${configDir})

Every key of the YAML files is described in docs/configuration.md.
`;
}

/** What a profile's file sets, as it is now: where it listens and how it logs. */
function summaryOf(configDir: string, profile: Profile): string {
  try {
    const { host, port, log } = loadConfig(configDir, profile, {});
    const lines =
      log.format === 'json' ? 'JSON lines (pino)' : 'short readable lines (pino-pretty)';
    return `listens on ${host}:${port} and logs ${lines} at the ${log.level} level`;
  } catch (error) {
    return `cannot be used: ${(error as Error).message.split('\n')[0]}`;
  }
}
