// janode (Meetecho's Node adapter for Janus) ships JavaScript without type
// declarations; these cover the part Foyer uses. Reference:
// https://meetecho.github.io/janode and its src/plugins/videoroom-plugin.js.
declare module 'janode' {
  import type { EventEmitter } from 'node:events';

  export interface JanodeServer {
    url: string;
    apisecret?: string;
    token?: string;
  }

  export interface JanodeConfig {
    address: JanodeServer | JanodeServer[];
    retry_time_secs?: number;
    max_retries?: number;
    is_admin?: boolean;
    ws_options?: Record<string, unknown>;
  }

  export interface Jsep {
    type: 'offer' | 'answer';
    sdp: string;
    e2ee?: boolean;
    rid_order?: 'hml' | 'lmh';
  }

  export class Handle extends EventEmitter {
    readonly id: number;
    detach(): Promise<void>;
    hangup(): Promise<unknown>;
    trickle(candidate: RTCIceCandidateLike | RTCIceCandidateLike[] | null | undefined): Promise<unknown>;
    trickleComplete(): Promise<unknown>;
    message(body: Record<string, unknown>, jsep?: Jsep): Promise<unknown>;
  }

  export interface RTCIceCandidateLike {
    candidate: string;
    sdpMid?: string | null;
    sdpMLineIndex?: number | null;
  }

  export class Session extends EventEmitter {
    readonly id: number;
    attach<H extends Handle>(plugin: { id: string; Handle: new (...args: never[]) => H }): Promise<H>;
    destroy(): Promise<void>;
  }

  export class Connection extends EventEmitter {
    readonly id: number;
    create(ka_interval?: number): Promise<Session>;
    getInfo(): Promise<Record<string, unknown>>;
    close(): Promise<void>;
  }

  const Janode: {
    connect(config: JanodeConfig, key?: number | string | null): Promise<Connection>;
    Logger: { setLevel(level: 'none' | 'error' | 'warning' | 'info' | 'verbose' | 'debug'): string };
    EVENT: {
      CONNECTION_CLOSED: string;
      CONNECTION_ERROR: string;
      SESSION_DESTROYED: string;
      HANDLE_DETACHED: string;
      HANDLE_ICE_FAILED: string;
      HANDLE_HANGUP: string;
      HANDLE_MEDIA: string;
      HANDLE_WEBRTCUP: string;
      HANDLE_SLOWLINK: string;
      HANDLE_TRICKLE: string;
    };
  };
  export default Janode;
}

declare module 'janode/plugins/videoroom' {
  import { Handle, type Jsep } from 'janode';

  export interface VideoRoomStream {
    type: 'audio' | 'video' | 'data';
    mindex: number;
    mid: string;
    disabled?: boolean;
    codec?: string;
    /** Publisher streams: whether it comes in layers; subscriber streams: the layers relayed and asked for. */
    simulcast?: boolean | { substream?: number; 'substream-target'?: number };
    /** Subscriber streams: whether Janus relays it (a paused one is not). */
    send?: boolean;
    talking?: boolean;
    /** Subscriber streams: false once the publisher went away (the m-line stays, inactive). */
    active?: boolean;
    feed_id?: number;
    feed_mid?: string;
    feed_display?: string;
    /** The publisher's `descriptions` text of the stream (Foyer: `camera` or `screen`). */
    feed_description?: string;
    /** Publisher streams: the text its publisher gave with `descriptions`. */
    description?: string;
    send?: boolean;
    ready?: boolean;
  }

  export interface VideoRoomPublisher {
    feed: number;
    display?: string;
    talking?: boolean;
    streams?: VideoRoomStream[];
  }

  /** One entry of a subscriber's `streams`, `subscribe` or `unsubscribe` list. */
  export interface StreamSpec {
    feed?: number;
    mid?: string;
    sub_mid?: string;
    crossrefid?: string;
    substream?: number;
    temporal?: number;
    send?: boolean;
  }

  export class VideoRoomHandle extends Handle {
    feed: number | null;
    room: number | null;
    streams: VideoRoomStream[] | null;
    create(params: Record<string, unknown>): Promise<{ room: number; permanent: boolean }>;
    destroy(params: { room: number; secret?: string; permanent?: boolean }): Promise<{ room: number }>;
    exists(params: { room: number }): Promise<{ room: number; exists: boolean }>;
    kick(params: { room: number; feed: number; secret?: string }): Promise<unknown>;
    listParticipants(params: { room: number; secret?: string }): Promise<{ room: number; participants: Array<{ feed: number; display?: string; publisher: boolean; talking?: boolean }> }>;
    joinPublisher(params: { room: number; feed?: number; display?: string; token?: string; pin?: string }): Promise<{ room: number; feed: number; private_id: number; publishers: VideoRoomPublisher[] }>;
    joinConfigurePublisher(params: { room: number; feed?: number; display?: string; descriptions?: Array<{ mid: string; description: string }>; jsep: Jsep }): Promise<{ feed: number; publishers: VideoRoomPublisher[]; jsep?: Jsep }>;
    configure(params: Record<string, unknown>): Promise<{ jsep?: Jsep; streams?: VideoRoomStream[] }>;
    publish(params: { jsep: Jsep; descriptions?: Array<{ mid: string; description: string }>; bitrate?: number }): Promise<{ jsep?: Jsep; streams?: VideoRoomStream[] }>;
    unpublish(): Promise<unknown>;
    joinSubscriber(params: { room: number; streams: StreamSpec[]; private_id?: number; autoupdate?: boolean; use_msid?: boolean }): Promise<{ room: number; streams: VideoRoomStream[]; jsep?: Jsep }>;
    start(params: { jsep?: Jsep }): Promise<unknown>;
    update(params: { subscribe?: StreamSpec[]; unsubscribe?: StreamSpec[] }): Promise<{ streams?: VideoRoomStream[]; jsep?: Jsep }>;
    switch(params: { streams: StreamSpec[] }): Promise<{ streams?: VideoRoomStream[] }>;
    leave(): Promise<unknown>;
  }

  const VideoRoomPlugin: {
    id: string;
    Handle: typeof VideoRoomHandle;
    EVENT: Record<
      | 'VIDEOROOM_PUB_PEER_JOINED'
      | 'VIDEOROOM_PUB_LIST'
      | 'VIDEOROOM_DESTROYED'
      | 'VIDEOROOM_UNPUBLISHED'
      | 'VIDEOROOM_LEAVING'
      | 'VIDEOROOM_DISPLAY'
      | 'VIDEOROOM_CONFIGURED'
      | 'VIDEOROOM_SLOWLINK'
      | 'VIDEOROOM_TALKING'
      | 'VIDEOROOM_KICKED'
      | 'VIDEOROOM_SC_SUBSTREAM_LAYER'
      | 'VIDEOROOM_SC_TEMPORAL_LAYERS'
      | 'VIDEOROOM_UPDATED'
      | 'VIDEOROOM_ERROR',
      string
    >;
  };
  export default VideoRoomPlugin;
}
