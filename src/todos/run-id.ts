/**
 * A new run's id: it tells a list that started again from the one before, and one list's event
 * ids from another's. 64 random bits, so that among many lists no two runs meet.
 */
export function newRunId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
