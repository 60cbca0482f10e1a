import type { Logger } from './logger.ts';

const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;

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
        logger.error('shutdown failed', { stack: (error as Error).stack });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
