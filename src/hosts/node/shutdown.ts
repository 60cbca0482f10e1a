import type { Server } from 'node:http';
import type { Logger } from './logger.ts';

const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;

/**
 * Stops accepting connections and waits for requests in flight, at most `timeoutMs`, before
 * closing whatever connections remain.
 */
export async function closeGracefully(server: Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A response whose headers went out before the close may leave its connection open and
  // idle once it ends; close such connections as they appear.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    if ((await Promise.race([closed, timedOut])) === 'timeout') {
      server.closeAllConnections();
      await closed;
    }
  } finally {
    clearInterval(sweep);
    clearTimeout(timer);
  }
}

/**
 * On SIGINT or SIGTERM, shuts down gracefully and exits 0; a second signal exits at once,
 * for the operator who will not wait.
 */
export function exitOnSignals(service: { close(): Promise<void> }, logger: Logger): void {
  let closing = false;
  const onSignal = (signal: keyof typeof SIGNAL_NUMBERS) => {
    if (closing) {
      logger.warn(`${signal} again: exiting without waiting`);
      process.exit(128 + SIGNAL_NUMBERS[signal]);
    }
    closing = true;
    logger.info(`${signal}: shutting down`);
    service.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
