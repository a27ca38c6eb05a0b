// The browser side of the SFU media spike (test/sfu/media-spike.experiment.ts):
// one publishing RTCPeerConnection (camera with three simulcast layers,
// microphone) and one receiving RTCPeerConnection for everyone else, with
// the offers and answers carried by the test itself (no trickle: each
// side's description is sent once its candidates are gathered). Standard
// WebRTC only, no SDP munging.

const peerConnections = [];
const NativePC = window.RTCPeerConnection;
window.RTCPeerConnection = function (...args) {
  const pc = new NativePC(...args);
  peerConnections.push(pc);
  return pc;
};
window.RTCPeerConnection.prototype = NativePC.prototype;

let publisher;
let subscriber;
let gain;
const remoteVideos = new Map();

function gathered(pc) {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      if (pc.iceGatheringState === 'complete') {
        pc.removeEventListener('icegatheringstatechange', check);
        resolve();
      }
    };
    pc.addEventListener('icegatheringstatechange', check);
  });
}

/** The three layers, highest first ("hml", Janus's default order). */
const ENCODINGS = [
  { rid: 'h', maxBitrate: 900_000 },
  { rid: 'm', maxBitrate: 300_000, scaleResolutionDownBy: 2 },
  { rid: 'l', maxBitrate: 100_000, scaleResolutionDownBy: 4 },
];

window.spike = {
  /** Camera and microphone; returns the publishing offer (after ICE gathering). */
  async publish({ width = 1280, height = 720, simulcast = true, setParameters = false, tone = false } = {}) {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: { width, height, frameRate: 24 } });
    if (tone) {
      // A steady loud tone instead of the fake microphone's short beeps: someone talking, as the SFU hears it.
      const context = new AudioContext();
      const oscillator = context.createOscillator();
      gain = context.createGain();
      gain.gain.value = 0;
      oscillator.connect(gain);
      const destination = context.createMediaStreamDestination();
      gain.connect(destination);
      oscillator.start();
      stream.removeTrack(stream.getAudioTracks()[0]);
      stream.addTrack(destination.stream.getAudioTracks()[0]);
    }
    publisher = new RTCPeerConnection();
    publisher.addTransceiver(stream.getAudioTracks()[0], { direction: 'sendonly', streams: [stream] });
    const init = { direction: 'sendonly', streams: [stream] };
    if (simulcast && !setParameters) init.sendEncodings = ENCODINGS;
    const video = publisher.addTransceiver(stream.getVideoTracks()[0], init);
    if (simulcast && setParameters) {
      const parameters = video.sender.getParameters();
      parameters.encodings = ENCODINGS;
      await video.sender.setParameters(parameters);
    }
    await publisher.setLocalDescription(await publisher.createOffer());
    await gathered(publisher);
    const settings = stream.getVideoTracks()[0].getSettings();
    return { sdp: publisher.localDescription.sdp, capture: { width: settings.width, height: settings.height } };
  },

  /** Starts or stops talking (the tone of `publish({ tone: true })`). */
  talk(on) {
    gain.gain.value = on ? 1 : 0;
  },

  async publisherAnswer(sdp) {
    await publisher.setRemoteDescription({ type: 'answer', sdp });
  },

  /** Answers the SFU's offer for the receiving connection (the first, or a renegotiation). */
  async subscribe(sdp) {
    if (!subscriber) {
      subscriber = new RTCPeerConnection();
      subscriber.addEventListener('track', ({ track, transceiver }) => {
        if (track.kind !== 'video') return;
        const video = document.createElement('video');
        video.muted = true;
        video.autoplay = true;
        video.playsInline = true;
        video.srcObject = new MediaStream([track]);
        document.body.append(video);
        remoteVideos.set(transceiver.mid, video);
      });
    }
    await subscriber.setRemoteDescription({ type: 'offer', sdp });
    await subscriber.setLocalDescription(await subscriber.createAnswer());
    await gathered(subscriber);
    return subscriber.localDescription.sdp;
  },

  peerConnections() {
    return peerConnections.filter((pc) => pc.connectionState !== 'closed').length;
  },

  states() {
    return { publisher: publisher?.connectionState, subscriber: subscriber?.connectionState };
  },

  /** What each layer of our camera sends, by rid. */
  async sent() {
    const out = {};
    if (!publisher) return out;
    for (const s of (await publisher.getStats()).values()) {
      if (s.type === 'outbound-rtp' && s.kind === 'video') {
        out[s.rid ?? '-'] = {
          width: s.frameWidth ?? 0,
          height: s.frameHeight ?? 0,
          framesEncoded: s.framesEncoded ?? 0,
          bytesSent: s.bytesSent ?? 0,
          limitation: s.qualityLimitationReason ?? null,
          active: s.active ?? null,
          keyFramesEncoded: s.keyFramesEncoded ?? 0,
          pliCount: s.pliCount ?? 0,
          firCount: s.firCount ?? 0,
        };
      }
    }
    return out;
  },

  /** What arrives on the receiving connection, by mid. */
  async received() {
    const out = {};
    if (!subscriber) return out;
    const mids = new Map(subscriber.getTransceivers().map((t) => [t.receiver.track.id, t.mid]));
    for (const s of (await subscriber.getStats()).values()) {
      if (s.type !== 'inbound-rtp') continue;
      const mid = s.mid ?? mids.get(s.trackIdentifier);
      out[mid] = {
        kind: s.kind,
        framesDecoded: s.framesDecoded ?? 0,
        keyFramesDecoded: s.keyFramesDecoded ?? 0,
        width: s.frameWidth ?? 0,
        height: s.frameHeight ?? 0,
        bytesReceived: s.bytesReceived ?? 0,
        packetsReceived: s.packetsReceived ?? 0,
        freezeCount: s.freezeCount ?? 0,
        totalFreezesDuration: s.totalFreezesDuration ?? 0,
      };
    }
    return out;
  },

  /** The receiving connection's m-lines: mid, kind, direction. */
  transceivers() {
    return (subscriber?.getTransceivers() ?? []).map((t) => ({ mid: t.mid, kind: t.receiver.track.kind, direction: t.currentDirection }));
  },

  leave() {
    publisher?.close();
    subscriber?.close();
  },
};
