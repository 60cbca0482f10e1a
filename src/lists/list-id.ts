/** base64url without padding (RFC 4648, section 5): the alphabet of every list id. */
export function base64UrlOf(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The bytes of `text`, only if written as an encoder writes them: one spelling for each id. */
export function bytesOfBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return base64UrlOf(bytes) === text ? bytes : undefined;
}

/** 128 random bits, in base64url (22 characters): knowing it gives access, so none may guess it. */
export function newListId(): string {
  return base64UrlOf(crypto.getRandomValues(new Uint8Array(16)));
}

const WRAP = 'AES-KW';
const utf8 = new TextEncoder();

/** View ids: edit ids wrapped (AES key wrap, deterministic, integrity-checked) under our key. */
export class ViewIds {
  readonly #key: Promise<CryptoKey>;

  /** The key is the SHA-256 of `secret`, at least 32 characters the service keeps. */
  constructor(secret: string) {
    this.#key = crypto.subtle
      .digest('SHA-256', utf8.encode(secret))
      .then((bytes) =>
        crypto.subtle.importKey('raw', bytes, WRAP, false, ['wrapKey', 'unwrapKey']),
      );
  }

  async viewIdOf(editId: string): Promise<string> {
    const id = await crypto.subtle.importKey('raw', bytesOfBase64Url(editId)!, WRAP, true, [
      'wrapKey',
    ]);
    const wrapped = await crypto.subtle.wrapKey('raw', id, await this.#key, WRAP);
    return base64UrlOf(new Uint8Array(wrapped));
  }

  /** The edit id `viewId` was derived from, or undefined when it is no view id of this key's. */
  async editIdOf(viewId: string): Promise<string | undefined> {
    const bytes = bytesOfBase64Url(viewId);
    // The ids wrapped are 16 bytes (Node) or 32 (a Durable Object's id); AES-KW adds 8.
    if (bytes?.byteLength !== 24 && bytes?.byteLength !== 40) return undefined;
    try {
      const id = await crypto.subtle.unwrapKey('raw', bytes, await this.#key, WRAP, WRAP, true, [
        'wrapKey',
      ]);
      return base64UrlOf(new Uint8Array((await crypto.subtle.exportKey('raw', id)) as ArrayBuffer));
    } catch {
      return undefined;
    }
  }
}

/** A secret for a service that keeps nothing: its view ids last as long as its lists. */
export function newViewSecret(): string {
  return base64UrlOf(crypto.getRandomValues(new Uint8Array(32)));
}
