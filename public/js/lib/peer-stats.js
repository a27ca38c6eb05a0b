// @module public/js/lib/peer-stats — what getStats says of one peer
// connection, for the quality bars and the uplink: round trip, loss and
// bitrate in each direction, the room the sender has; and the loudness of
// what arrives, for the ring around whoever speaks; what arrives and by
// which path, for tests and diagnostics. Used by the mesh (one connection
// per person); an SFU client reports the same shape.

/**
 * Figures since the last call for the same `memory` object: `{ rtt,
 * loss, inKbps, lossOut, availableOut, outKbps }` (seconds, fractions,
 * kbit/s, bit/s); a figure the browser does not give is undefined.
 */
export async function connectionFigures(pc, memory) {
  const report = await pc.getStats();
  let rtt;
  let availableOut;
  let received = 0;
  let lost = 0;
  let bytesIn = 0;
  let bytesOut = 0;
  let lossOut;
  let at = 0;
  report.forEach((s) => {
    if (s.type === 'candidate-pair' && (s.nominated || s.selected) && s.state === 'succeeded') {
      if (typeof s.currentRoundTripTime === 'number') rtt = s.currentRoundTripTime;
      if (typeof s.availableOutgoingBitrate === 'number') availableOut = s.availableOutgoingBitrate;
    } else if (s.type === 'inbound-rtp') {
      received += s.packetsReceived || 0;
      lost += Math.max(0, s.packetsLost || 0);
      bytesIn += s.bytesReceived || 0;
      at = Math.max(at, s.timestamp || 0);
    } else if (s.type === 'outbound-rtp') {
      bytesOut += s.bytesSent || 0;
    } else if (s.type === 'remote-inbound-rtp') {
      if (typeof s.fractionLost === 'number') lossOut = Math.max(lossOut ?? 0, s.fractionLost);
      if (rtt === undefined && typeof s.roundTripTime === 'number') rtt = s.roundTripTime;
    }
  });
  const previous = memory.last;
  memory.last = { received, lost, bytesIn, bytesOut, at: at || performance.now() };
  if (!previous) return { rtt, availableOut, lossOut };
  const seconds = Math.max(0.001, ((at || performance.now()) - previous.at) / 1000);
  const newPackets = received - previous.received + (lost - previous.lost);
  return {
    rtt,
    availableOut,
    lossOut,
    loss: newPackets > 0 ? (lost - previous.lost) / newPackets : 0,
    inKbps: ((bytesIn - previous.bytesIn) * 8) / 1000 / seconds,
    outKbps: ((bytesOut - previous.bytesOut) * 8) / 1000 / seconds,
  };
}

/** How loud the audio arriving on `pc` is now (0 to 1), from its receivers' sources. */
export function arrivingLevel(pc) {
  let level = 0;
  for (const receiver of pc.getReceivers()) {
    if (receiver.track?.kind !== 'audio' || typeof receiver.getSynchronizationSources !== 'function') continue;
    for (const source of receiver.getSynchronizationSources()) level = Math.max(level, source.audioLevel ?? 0);
  }
  return level;
}

/** Caps what a video sender sends (`maxBitrate`, `scaleResolutionDownBy`, `maxFramerate`); needs a negotiated sender. */
export async function capVideoSender(sender, profile) {
  const parameters = sender.getParameters();
  if (!parameters.encodings?.length) return false;
  const encoding = parameters.encodings[0];
  if (encoding.maxBitrate === profile.maxBitrate && encoding.scaleResolutionDownBy === profile.scaleResolutionDownBy && encoding.maxFramerate === profile.maxFramerate) return true;
  Object.assign(encoding, profile);
  await sender.setParameters(parameters);
  return true;
}

/** Video frames one connection has decoded. */
export async function decodedFrames(pc) {
  let frames = 0;
  (await pc.getStats()).forEach((s) => {
    if (s.type === 'inbound-rtp' && s.kind === 'video') frames += s.framesDecoded || 0;
  });
  return frames;
}

/**
 * What arrives on one connection and what it sends (tests and diagnostics):
 * frames decoded and their size, audio packets, samples and energy, the
 * video sender's limits, and the path media takes.
 */
export async function receivedFigures(pc) {
  const stats = await pc.getStats();
  const out = { framesDecoded: 0, frameWidth: 0, frameHeight: 0, audioPackets: 0, audioSamples: 0, audioEnergy: 0, sentVideo: null, path: selectedPath(stats) };
  const video = pc.getTransceivers().find((t) => t.receiver.track?.kind === 'video');
  const encoding = video?.sender.getParameters().encodings?.[0];
  if (encoding) out.sentVideo = { track: video.sender.track?.label ?? null, maxBitrate: encoding.maxBitrate ?? null, scaleResolutionDownBy: encoding.scaleResolutionDownBy ?? null, maxFramerate: encoding.maxFramerate ?? null };
  stats.forEach((s) => {
    if (s.type === 'inbound-rtp') addInbound(out, s);
  });
  return out;
}

/** Adds one inbound-rtp report to a receiver's figures (frames decoded and their size; audio packets, samples, energy). */
export function addInbound(out, s) {
  if (s.kind === 'video') {
    out.framesDecoded += s.framesDecoded || 0;
    out.frameWidth = s.frameWidth || out.frameWidth;
    out.frameHeight = s.frameHeight || out.frameHeight;
  } else if (s.kind === 'audio') {
    out.audioPackets += s.packetsReceived || 0;
    out.audioSamples += s.totalSamplesReceived || 0;
    out.audioEnergy += s.totalAudioEnergy || 0;
  }
}

/** The candidate types and ports of the path media takes ('host', 'srflx', 'prflx', 'relay') and the bytes it carried, or null before there is one. */
export function selectedPath(report) {
  const all = new Map();
  report.forEach((s) => all.set(s.id, s));
  const stats = [...all.values()];
  const transport = stats.find((s) => s.type === 'transport' && s.selectedCandidatePairId);
  // Firefox has no transport stats: its selected pair says so itself.
  const pair = transport ? all.get(transport.selectedCandidatePairId) : stats.find((s) => s.type === 'candidate-pair' && s.selected);
  if (!pair) return null;
  const local = all.get(pair.localCandidateId);
  const remote = all.get(pair.remoteCandidateId);
  return {
    local: local?.candidateType ?? null,
    remote: remote?.candidateType ?? null,
    localPort: local?.port ?? null,
    remotePort: remote?.port ?? null,
    bytesSent: pair.bytesSent ?? 0,
    bytesReceived: pair.bytesReceived ?? 0,
  };
}

// Over a page's connections, one per remote participant (`peers`: id → { pc, remoteStream?, figures? }, as lib/mesh.js keeps them).

/** How loud each remote participant is now (0 to 1). */
export function levelsByPeer(peers) {
  const levels = {};
  for (const [id, peer] of peers) levels[id] = arrivingLevel(peer.pc);
  return levels;
}

/** connectionFigures of each connected peer, since the last call (each peer keeps its own memory in `figures`). */
export async function figuresByPeer(peers) {
  const result = {};
  for (const [id, peer] of peers) {
    if (peer.pc.connectionState !== 'connected') continue;
    peer.figures ??= {};
    result[id] = await connectionFigures(peer.pc, peer.figures).catch(() => ({}));
  }
  return result;
}

/** What arrives from each peer, with its connection's state and stream (tests and diagnostics). */
export async function receivedByPeer(peers) {
  const result = {};
  for (const [id, peer] of peers) {
    result[id] = { state: peer.pc.connectionState, streamId: peer.remoteStream?.id ?? null, ...(await receivedFigures(peer.pc)) };
  }
  return result;
}
