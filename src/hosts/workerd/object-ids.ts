import { base64UrlOf, bytesOfBase64Url } from '../../lists/list-id.ts';

/** The default list's object: every isolate addresses it by this name. */
export const LIST_NAME = 'todos';

/**
 * A named list's id on workerd is its Durable Object's own id, written in base64url (43
 * characters) rather than hex. It is made by `newUniqueId()` (16 random bytes and 16 bytes of a
 * MAC under the namespace's key) or, for a list made with an `Idempotency-Key`, by
 * `idFromName` from the key. The worker checks an id with the runtime's own `idFromString`,
 * which verifies that it belongs to the namespace, so an id nobody made is refused before any
 * object is woken, and no storage is ever made for it.
 */
export function listIdOf(objectId: DurableObjectId): string {
  const hex = objectId.toString();
  return base64UrlOf(Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16)));
}

/** The object that holds the list with this id, or undefined when no object could. */
export function objectIdOf(
  namespace: DurableObjectNamespace,
  listId: string,
): DurableObjectId | undefined {
  const bytes = bytesOfBase64Url(listId);
  if (bytes?.byteLength !== 32) return undefined;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  try {
    return namespace.idFromString(hex);
  } catch {
    // Not an id of this namespace: the MAC does not match.
    return undefined;
  }
}
