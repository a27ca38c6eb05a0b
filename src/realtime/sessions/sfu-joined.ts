/**
 * @module realtime/sessions/sfu-joined
 * What an SFU link holds while it is in a room: the Janus it is on, its
 * publisher handle and feed, and the subscription that handle feeds. Built
 * in one place so that everything it listens to (the Janus going down, the
 * room's publishers and who is talking) is tied to this one `Joined`, and a
 * link that has moved on hears nothing more of it; left in one place too
 * (`leaveRoom`).
 */
import type { VideoRoomHandle } from 'janode/plugins/videoroom';
import type { JanusServer } from '../../sfu/janus-server.ts';
import type { ServerMessage, VideoWant } from '../protocol.ts';
import { hearRoom } from './sfu-room-events.ts';
import { detachWithin } from './sfu-steps.ts';
import { SfuSubscription } from './sfu-subscription.ts';

export interface Joined {
  server: JanusServer;
  room: number;
  pub: VideoRoomHandle;
  feed: number;
  /** The page's publishing offer reached the handle: one joined ahead of it (prepare) has none yet. */
  published: boolean;
  sdpSession: string | null;
  stopWatching: () => void;
  subscription: SfuSubscription;
}

/** What a `Joined` needs of its link. */
export interface JoinedLink {
  /** The participant's id (the display of their feed). */
  readonly id: string;
  send(message: ServerMessage): void;
  run(what: string, step: () => Promise<void>): void;
  /** The link still holds `joined` (and its participant is still here). */
  holds(joined: Joined): boolean;
  /** `joined`'s Janus stopped answering. */
  down(joined: Joined): void;
  readonly wants: ReadonlyMap<string, VideoWant>;
  readonly videoSlots: number;
}

/** A `Joined` on `pub`, a handle attached on `server` for `room` (not in the room yet), listening to both. */
export function joinedOn(server: JanusServer, room: number, pub: VideoRoomHandle, session: string | null, link: JoinedLink): Joined {
  const onDown = () => link.down(joined);
  const joined: Joined = {
    server,
    room,
    pub,
    feed: 0,
    published: false,
    sdpSession: session,
    stopWatching: () => server.off('down', onDown),
    subscription: new SfuSubscription(
      {
        server,
        room,
        send: (m) => link.send(m),
        run: (what, step) => link.run(what, step),
        current: () => link.holds(joined),
        wants: link.wants,
        videoSlots: link.videoSlots,
      },
      () => joined.feed,
    ),
  };
  server.once('down', onDown);
  hearRoom(pub, joined.subscription, { id: link.id, feed: () => joined.feed }, (from, talking) => {
    if (link.holds(joined)) link.send({ type: 'sfu', event: 'talking', from, talking });
  });
  return joined;
}

/** The link no longer holds `joined`: it hears nothing more of it, the subscription ends, and the handles go (if its Janus is up). */
export async function leaveRoom(joined: Joined): Promise<void> {
  joined.stopWatching();
  joined.subscription.stop();
  if (!joined.server.up) return;
  await Promise.all([detachWithin(joined.subscription.handle), detachWithin(joined.pub)]);
}
