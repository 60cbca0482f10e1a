/** An event id (and list ETag) as the service writes them: `<run>.<seq>`. */
export interface EventId {
  readonly run: string;
  readonly seq: number;
}

export function parseEventId(id: string): EventId | undefined {
  const dot = id.lastIndexOf('.');
  const seq = Number(id.slice(dot + 1));
  if (dot <= 0 || !Number.isSafeInteger(seq) || seq < 0) return undefined;
  return { run: id.slice(0, dot), seq };
}

/** The version an ETag (`"<run>.<seq>"`) names. */
export function parseEtag(etag: string | undefined): EventId | undefined {
  if (etag === undefined || !etag.startsWith('"') || !etag.endsWith('"')) return undefined;
  return parseEventId(etag.slice(1, -1));
}
