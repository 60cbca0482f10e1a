import { EventOrder } from './event-order.ts';
import {
  EventStream,
  type FeedList,
  type LiveFeed,
  type LiveFeedListener,
} from './event-stream.ts';
import { SharedLiveFeed } from './shared-live-feed.ts';
import type { TodoApi } from './todo-api.ts';

/**
 * The feed for this tab: the stream shared by all tabs of this origin that show the list,
 * where the browser can elect one tab to hold it, else a stream of its own. A stream a tab
 * never closes takes one of the six connections a browser allows a host over HTTP/1.1, so six
 * tabs with a stream each leave a seventh unable to load.
 */
export function openLiveFeed(listener: LiveFeedListener, api: TodoApi, list: FeedList): LiveFeed {
  // Web Locks exist only in secure contexts (https:, or http: on localhost).
  if (typeof navigator.locks?.request === 'function' && typeof BroadcastChannel === 'function') {
    return new SharedLiveFeed(listener, api, navigator.locks, list);
  }
  return ownLiveFeed(listener, list);
}

function ownLiveFeed(listener: LiveFeedListener, list: FeedList): LiveFeed {
  let gone = false;
  const order = new EventOrder((event) => listener.event(event));
  const stream = new EventStream(
    {
      event: (event) => order.accept(event),
      state: (state) => {
        gone ||= state === 'gone';
        listener.state(state);
      },
    },
    list,
  );
  return {
    leads: true,
    start: () => stream.open(),
    end: () => {
      if (gone) return;
      gone = true;
      stream.close();
      listener.state('gone');
    },
  };
}
