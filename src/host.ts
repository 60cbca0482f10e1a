import type { ResponseClass } from './http/responses.ts';
import type { AssetSource } from './http/static-files.ts';
import { openWebEventChannel, type OpenEventChannel } from './live/event-channel.ts';

/** `requestId` is the id the client was given for the request that failed, if any. */
export type ErrorReporter = (error: unknown, request?: Request, requestId?: string) => void;

/**
 * What the handler takes from the server it runs in: the duties only a host can do (its files,
 * its error log), what it can tell of its connections, and the shortcuts to its sockets that
 * it may offer in place of the slower web-standard way. The Node host offers all of them;
 * workerd needs none.
 */
export interface Host {
  /** The files of `public/`; without them every page path is 404. */
  readonly assets?: AssetSource;
  /** Where unexpected exceptions go; the client only ever sees a generic 500. */
  readonly reportError: ErrorReporter;
  /**
   * The class every answer is built with. On Node, @whatwg-node/server writes its own class
   * straight to the socket, while the global one has to be read back through a web stream.
   */
  readonly Response: ResponseClass;
  /**
   * Whether the host delivers exactly Content-Length bytes of a body that declares one, as an
   * HTTP/1.1 server's parser does, so such a body may be read whole. A `Request` built in code
   * may declare any length.
   */
  readonly contentLengthIsExact: boolean;
  /** How each event stream is made: a web `TransformStream`, or the host's cheaper way. */
  readonly openEventChannel: OpenEventChannel;
  /**
   * Whether the handler writes the heartbeats of its event streams. On workerd the worker that
   * carries each stream to its client writes them instead, so that the list's object keeps no
   * timer and can hibernate between changes.
   */
  readonly writesHeartbeats: boolean;
  /**
   * Runs `task` once the answers now under way are written, so that a change is answered
   * before it is written to every open stream (Node: `setImmediate`). Without it, a change
   * reaches the streams before its answer leaves.
   */
  readonly afterAnswers?: (task: () => void) => void;
}

/** The web-standard way for every part: what a host that offers nothing gets. */
export const WEB_HOST: Host = {
  reportError: (error) => console.error(error),
  Response,
  contentLengthIsExact: false,
  openEventChannel: openWebEventChannel,
  writesHeartbeats: true,
};
