import type { ServerChild } from '../children.ts';

export interface CpuMark {
  readonly wallMs: number;
  readonly serviceMs: number;
  readonly soakMs: number;
}

/** CPU time so far of the service and of this process, to compare two marks. */
export async function cpuMark(server: ServerChild): Promise<CpuMark> {
  const service = await server.cpu();
  const own = process.cpuUsage();
  return {
    wallMs: performance.now(),
    serviceMs: service.userMs + service.systemMs,
    soakMs: (own.user + own.system) / 1000,
  };
}

/** Each process's CPU time between two marks, as a share of one core. */
export function busyBetween(start: CpuMark, end: CpuMark) {
  const wallMs = end.wallMs - start.wallMs;
  return {
    service: (end.serviceMs - start.serviceMs) / wallMs,
    soak: (end.soakMs - start.soakMs) / wallMs,
  };
}
