export const MIB = 1024 * 1024;

export const count = (value: number) => Math.round(value).toLocaleString('en-US');
export const mib = (bytes: number) => `${(bytes / MIB).toFixed(2)} MiB`;
export const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
export const seconds = (value: number) => `${value.toFixed(1)} s`;
export const signedMib = (bytes: number) => `${bytes >= 0 ? '+' : '−'}${mib(Math.abs(bytes))}`;
