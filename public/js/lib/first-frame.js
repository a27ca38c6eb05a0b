// @module public/js/lib/first-frame — the moment the first frame that came
// over the network is painted in a <video>: what join latency is measured to.
//
// requestVideoFrameCallback alone is not enough: a remote track that ends
// (its connection closed, say by a rebuild) paints one black frame, so a
// call that never carried video would still report a "first frame". Only a
// frame painted while the video's track is live and unmuted (receiving RTP),
// after its connection decoded at least one frame, counts; other frames
// are skipped and the next one is checked.

/**
 * Calls `onFrame(time)` once, with the performance.now() time of the first
 * such frame of `video`. `decoded()` resolves to the number of video frames
 * the connection behind it has decoded (getStats). Returns a function that
 * stops watching.
 */
export function watchFirstFrame(video, decoded, onFrame) {
  if (!('requestVideoFrameCallback' in video)) return () => {};
  let stopped = false;
  let handle = 0;
  const check = async (now) => {
    if (stopped) return;
    const track = video.srcObject?.getVideoTracks?.()[0];
    const live = track && track.readyState === 'live' && !track.muted;
    if (live && (await decoded().catch(() => 0)) > 0 && !stopped) {
      stopped = true;
      onFrame(now);
      return;
    }
    handle = video.requestVideoFrameCallback(check);
  };
  handle = video.requestVideoFrameCallback(check);
  return () => {
    stopped = true;
    video.cancelVideoFrameCallback?.(handle);
  };
}
