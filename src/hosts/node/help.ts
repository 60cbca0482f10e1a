import { PROFILES } from './load-config.ts';

/** What `npm start -- --help` prints: how to start the service and what it reads. */
export function helpText(configDir: string): string {
  return `Usage: npm start [-- <profile>]     (or: node dist/hosts/node/main.js [<profile>])

Serves the to-do API, its event stream and the page on one port.

Profiles (default prod):
${PROFILES.map((profile) => `  ${profile.padEnd(6)}${configDir}/${profile}.yaml`).join('\n')}
  prod  listens on 0.0.0.0:8080 and logs JSON lines (pino)
  dev   listens on 127.0.0.1:8080 and logs short readable lines (pino-pretty)

Environment:
  PORT             the port to listen on, over the profile's "port" (0 picks a free one)
  HOST             the address to listen on, over the profile's "host"
  STORAGE_FILE     a SQLite file that keeps the lists across restarts, over "storage.file"
                   (empty: memory only, the default)
  TODO_CONFIG_DIR  the folder that holds the profiles' YAML files (now ${configDir})

Every key of the YAML files is described in docs/configuration.md.
`;
}
