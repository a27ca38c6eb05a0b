/**
 * @module scripts/sfu-load/observer
 * A Chromium observer: the real meeting page, opened from the meeting's
 * link (the pre-join screen skipped), its fake camera at a few frames a
 * second as in the SFU tests. It gives the time from opening the link to
 * the first decoded and painted remote frame (scripts/first-frame.ts: a
 * failed join is a failure, never a time) and the frame rate it decodes.
 */
import { startTimeline, stopTimeline } from './timeline.ts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cameraFpsFor, slowCamera } from '../../test/sfu/meeting-pages.ts';
import { firstFrame, type FirstFrame } from '../first-frame.ts';

export interface Observer {
  name: string;
  context: BrowserContext;
  page: Page;
  first: FirstFrame;
  /** With `trace`: what happened on the way to the first frame, in ms since the link was opened. */
  trace?: string;
}

/**
 * Notes the page's signalling messages (by type, and `sfu` event) and its connections' states, with their
 * performance.now() times: where a join's time goes.
 */
function traceJoin(): void {
  const marks: string[] = ((window as any).joinTrace = []);
  const mark = (what: string) => marks.push(`${performance.now().toFixed(0)} ${what}`);
  mark(`page's time 0 is ${new Date(performance.timeOrigin).toISOString()}`);
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      this.addEventListener('open', () => mark('socket open'));
      this.addEventListener('message', (e) => {
        const m = JSON.parse(String(e.data));
        if (m.type !== 'presence') mark(`← ${m.type}${m.event ? ` ${m.event}` : ''}${m.from === 'sfu' ? ' sfu' : ''}`);
      });
    }
    override send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
      if (typeof data === 'string') {
        const m = JSON.parse(data);
        mark(`→ ${m.type}${m.to ? ` ${m.to}` : ''}`);
      }
      super.send(data);
    }
  };
  const Connection = window.RTCPeerConnection;
  let n = 0;
  window.RTCPeerConnection = class extends Connection {
    constructor(...args: ConstructorParameters<typeof RTCPeerConnection>) {
      super(...args);
      const k = ++n;
      mark(`pc${k} made`);
      this.addEventListener('connectionstatechange', () => mark(`pc${k} ${this.connectionState}`));
      // Once a receiving connection is connected: when its first audio and video packets, received frames and
      // decoded frames came (network, key frame, decoder). Every 50 ms, one reading at a time, and only until the
      // first frame: the readings take the page's main thread too, which traced joins then count.
      let polled = false;
      this.addEventListener('connectionstatechange', () => {
        const receiving = this.getTransceivers().some((t) => t.direction === 'recvonly');
        if (this.connectionState !== 'connected' || !receiving || polled) return;
        polled = true;
        const seen = new Set<string>();
        const until = performance.now() + 15_000;
        const poll = async (): Promise<void> => {
          const stats = await this.getStats().catch(() => undefined);
          let bytes = 0, received = 0, decoded = 0, plis = 0, audio = 0;
          stats?.forEach((r: any) => {
            if (r.type === 'inbound-rtp' && r.kind === 'audio') audio += r.bytesReceived ?? 0;
            if (r.type !== 'inbound-rtp' || r.kind !== 'video') return;
            bytes += r.bytesReceived ?? 0;
            received += r.framesReceived ?? 0;
            decoded += r.framesDecoded ?? 0;
            plis += r.pliCount ?? 0;
          });
          for (const [what, count] of [['audio bytes', audio], ['video bytes', bytes], ['frames received', received], ['frames decoded', decoded], ['PLI sent', plis]] as const)
            if (count > 0 && !seen.has(what)) {
              seen.add(what);
              mark(`pc${k} ${what}`);
            }
          if (decoded === 0 && stats && performance.now() < until) setTimeout(poll, 50);
        };
        void poll();
      });
      let tracks = 0;
      this.addEventListener('track', () => {
        if (tracks++ === 0) mark(`pc${k} first track`);
      });
    }
  };
}

export async function observe(browser: Browser, link: string, name: string, timeoutMs: number, trace = false): Promise<Observer> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`# ${name} page error: ${error.message}`));
  await page.addInitScript(slowCamera, { fps: cameraFpsFor() });
  // tsx names the script's functions with a helper the page lacks.
  if (trace) await page.addInitScript({ content: `window.__name = (f) => f; (${traceJoin.toString()})();` });
  if (trace) await startTimeline(browser, page);
  let first: FirstFrame;
  let timeline = '';
  try {
    await page.goto(`${link}${link.includes('?') ? '&' : '?'}displayName=${encodeURIComponent(name)}`);
    first = await firstFrame(page, timeoutMs);
  } finally {
    // Always stopped: a trace left running would refuse the next observer's.
    if (trace) timeline = await stopTimeline(browser, link);
  }
  const marks = trace ? await page.evaluate(() => (window as any).joinTrace as string[]).catch(() => []) : [];
  return { name, context, page, first, ...(trace ? { trace: `${marks.join(' | ')}\n#   ${timeline}` } : {}) };
}

export async function framesDecoded(o: Observer): Promise<Record<string, number>> {
  return o.page.evaluate(() => (window as any).foyer?.framesDecoded?.() ?? {}).catch(() => ({}));
}

/** Frames a second per remote video over a window, from two framesDecoded() samples; and how many videos grew. */
export function frameRate(before: Record<string, number>, after: Record<string, number>, seconds: number): { fps: number; videos: number } {
  let frames = 0;
  let videos = 0;
  for (const [id, n] of Object.entries(after)) {
    const grown = n - (before[id] ?? 0);
    if (grown > 0) {
      frames += grown;
      videos += 1;
    }
  }
  return { fps: videos ? frames / videos / seconds : 0, videos };
}

export async function mediaPath(o: Observer): Promise<unknown> {
  return o.page.evaluate(() => (window as any).foyer?.mediaPath?.()).catch(() => null);
}

export async function close(o: Observer): Promise<void> {
  await o.context.close().catch(() => {});
}
