/**
 * @module realtime/sessions/sfu-room-events
 * What an SFU link's publisher handle hears of its room, and where it
 * goes: publishers arriving or changing their streams, and publishers
 * leaving, to the link's subscription; who is talking (Janus's audio
 * levels), to the browser. The handle hears it from the moment it joins
 * the room, media or not.
 */
import VideoRoomPlugin, { type VideoRoomHandle, type VideoRoomPublisher } from 'janode/plugins/videoroom';
import type { SfuSubscription } from './sfu-subscription.ts';

export function hearRoom(
  pub: VideoRoomHandle,
  subscription: SfuSubscription,
  own: { id: string; feed: () => number },
  talking: (from: string, talking: boolean) => void,
): void {
  pub.on(VideoRoomPlugin.EVENT.VIDEOROOM_PUB_LIST, (e: { publishers: VideoRoomPublisher[] }) => subscription.publishers(e.publishers));
  const gone = (e: { feed?: number }) => {
    if (e.feed === undefined || e.feed === own.feed()) return;
    subscription.gone(e.feed);
  };
  pub.on(VideoRoomPlugin.EVENT.VIDEOROOM_UNPUBLISHED, gone);
  pub.on(VideoRoomPlugin.EVENT.VIDEOROOM_LEAVING, gone);
  pub.on(VideoRoomPlugin.EVENT.VIDEOROOM_TALKING, (e: { feed: number; talking: boolean }) => {
    const from = e.feed === own.feed() ? own.id : subscription.participantOf(e.feed);
    if (from) talking(from, e.talking);
  });
}
