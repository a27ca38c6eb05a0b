/**
 * @module sfu/rooms
 * One Janus VideoRoom room per place (the SFU room of docs/glossary.md), and what Foyer does to it:
 * create it (again, after a Janus restart), destroy it, kick one
 * participant out of it.
 *
 * Room ids are random integers below 2^53 (JSON numbers survive the trip
 * through JavaScript; Janus's `string_ids` stays off, its default, so any
 * Janus of a pool works). Each room's secret, needed to destroy it or kick
 * from it, is derived from the server's API secret and the room id
 * (HMAC-SHA256): unpredictable without the API secret, different for every
 * room, and the same on every Foyer instance, so nothing secret is stored
 * in the database and any instance can act on any room of its pool.
 */
import { createHmac, randomInt } from 'node:crypto';
import type { VideoRoomHandle } from 'janode/plugins/videoroom';

/** VideoRoom error codes (janus_videoroom.c). */
export const NO_SUCH_ROOM = 426;
export const ROOM_EXISTS = 427;
export const NO_SUCH_FEED = 428;

/** A fresh room id: a random positive integer JavaScript represents exactly. */
export function newRoomId(): number {
  // randomInt's range is limited to 2^48; two draws make 53 bits.
  return randomInt(1, 2 ** 48) * 32 + randomInt(0, 32);
}

export function roomSecret(apiSecret: string, room: number): string {
  return createHmac('sha256', apiSecret).update(`foyer/videoroom/${room}`).digest('base64url');
}

/** The VideoRoom error code of a failed janode request, if it is one. */
export function videoRoomErrorCode(error: unknown): number | undefined {
  const code = (error as { _code?: unknown })?._code;
  if (typeof code === 'number') return code;
  const match = /^(\d{3}) /.exec((error as Error)?.message ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * How every room is made, in Janus's own names (the body of VideoRoom's
 * `create`): VP8 (simulcast in every browser) and Opus; talking events
 * from the publishers' audio levels (for the active speaker); no cap on
 * publishers below Foyer's own; hidden from `list`. And Opus DTX: Janus's
 * answer asks each browser for discontinuous transmission, so that a
 * muted or silent microphone sends about 5 packets a second instead of 50 a
 * second. In a meeting of 50 where a few talk, each browser then receives
 * a few audio streams' worth of packets, not 49.
 */
export const ROOM_SETTINGS = {
  description: 'foyer',
  is_private: true,
  permanent: false,
  publishers: 1000,
  // Enough for three simulcast layers of a 720p camera (REMB cap per publisher).
  bitrate: 2_000_000,
  fir_freq: 10,
  audiocodec: 'opus',
  videocodec: 'vp8',
  opus_dtx: true,
  audiolevel_event: true,
  // Janus's defaults: talking after 2 s (100 packets) above 25 (-dBov, lower is louder).
  audio_level_average: 25,
  audio_active_packets: 100,
} as const;

/**
 * Creates the room unless it exists already (another instance, or a retry, made it). Sent as janode's create()
 * sends it, which has no word for `opus_dtx`; a refusal rejects as janode's requests do (`427 Room … already exists`).
 */
export async function ensureRoom(manager: VideoRoomHandle, room: number, secret: string): Promise<'created' | 'existed'> {
  try {
    const response = (await manager.message({ request: 'create', ...ROOM_SETTINGS, room, secret })) as { plugindata?: { data?: { videoroom?: string } } };
    if (response?.plugindata?.data?.videoroom !== 'created') throw new Error(`Janus did not create room ${room}`);
    return 'created';
  } catch (error) {
    if (videoRoomErrorCode(error) === ROOM_EXISTS) return 'existed';
    throw error;
  }
}

/** Destroys the room, which ends every participant's media in it; a room already gone is fine. */
export async function destroyRoom(manager: VideoRoomHandle, room: number, secret: string): Promise<'destroyed' | 'absent'> {
  try {
    await manager.destroy({ room, secret });
    return 'destroyed';
  } catch (error) {
    if (videoRoomErrorCode(error) === NO_SUCH_ROOM) return 'absent';
    throw error;
  }
}

/** Kicks one publisher out (their media stops at once); one already gone is fine. */
export async function kickFromRoom(manager: VideoRoomHandle, room: number, secret: string, feed: number): Promise<'kicked' | 'absent'> {
  try {
    await manager.kick({ room, feed, secret });
    return 'kicked';
  } catch (error) {
    const code = videoRoomErrorCode(error);
    if (code === NO_SUCH_FEED || code === NO_SUCH_ROOM) return 'absent';
    throw error;
  }
}
