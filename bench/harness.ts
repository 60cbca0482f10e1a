import { withinSeconds } from './bounds.ts';
import { startServerChild, type ServerChild, type ServerKind } from './children.ts';
import type { LoadSettings } from './load.ts';
import type { Progress } from './progress.ts';

/** What every section of the benchmark shares: how to start a server, the load, the status line. */
export interface Harness {
  readonly rounds: number;
  readonly load: LoadSettings;
  readonly warmUpSeconds: number;
  /** `limits.maxItems` for every server, so POST and the DELETE pool fit. */
  readonly maxItems: number;
  readonly progress: Progress;
  /** Starts a fresh server; `name` names its CPU profile when profiles are asked for. */
  launch(kind: ServerKind, name: string): Promise<ServerChild>;
}

export interface LaunchOptions {
  readonly maxItems: number;
  readonly serverCore: number | undefined;
  readonly profileDir: string | undefined;
}

export function launcher({ maxItems, serverCore, profileDir }: LaunchOptions) {
  return (kind: ServerKind, name: string) =>
    withinSeconds(`starting the ${kind} server`, 20, () =>
      startServerChild(kind, {
        maxItems,
        core: serverCore,
        ...(profileDir !== undefined && {
          cpuProfile: { dir: profileDir, name: `${name}.cpuprofile` },
        }),
      }),
    );
}

/** Runs `body` with a fresh server, stopping it however `body` ends; errors name the step. */
export async function withServer<T>(
  harness: Harness,
  kind: ServerKind,
  name: string,
  body: (server: ServerChild) => Promise<T>,
): Promise<T> {
  const server = await harness.launch(kind, name);
  try {
    return await body(server);
  } catch (error) {
    throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  } finally {
    await server.stop();
  }
}
