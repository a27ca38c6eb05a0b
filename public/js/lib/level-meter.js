// @module public/js/lib/level-meter — how loud a microphone is, from Web
// Audio: a level from 0 (silence) to 1 (full scale), read whenever wanted.
// Browsers start audio only after a gesture; the meter resumes on the first
// click or key, and reads 0 until then.

/** A meter on `track`; `level()` reads it, `stop()` releases it. */
export function createLevelMeter(track) {
  let audio;
  try {
    audio = new AudioContext();
  } catch {
    return { level: () => 0, stop() {} };
  }
  const source = audio.createMediaStreamSource(new MediaStream([track]));
  const analyser = audio.createAnalyser();
  analyser.fftSize = 512;
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const resume = () => void audio.resume().catch(() => {});
  resume();
  document.addEventListener('pointerdown', resume, { once: true });
  document.addEventListener('keydown', resume, { once: true });
  return {
    level() {
      if (audio.state !== 'running') return 0;
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const s of samples) sum += s * s;
      // RMS, scaled so speech at a normal distance fills about half the meter.
      return Math.min(1, Math.sqrt(sum / samples.length) * 4);
    },
    stop() {
      source.disconnect();
      void audio.close().catch(() => {});
    },
  };
}
