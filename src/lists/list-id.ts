/** base64url without padding (RFC 4648, section 5): the alphabet of every list id. */
export function base64UrlOf(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * The bytes `text` encodes in base64url, or undefined when it is not base64url written the one
 * way an encoder writes it: so every id names one list, and no two spellings name the same.
 */
export function bytesOfBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return base64UrlOf(bytes) === text ? bytes : undefined;
}

/**
 * A new list id: 128 bits from the platform's cryptographic random source, in base64url (22
 * characters). Knowing it is what gives access to the list, so it must not be guessable.
 */
export function newListId(): string {
  return base64UrlOf(crypto.getRandomValues(new Uint8Array(16)));
}
