// @module public/js/call/permission-help — what a person is told when the
// camera or microphone cannot be used: in plain words what happened
// (blocked, not found, in use elsewhere, stopped), for a block the steps
// for the browser in use (Chrome, Edge, Firefox, Safari, iOS, Android),
// a retry, and a way on without them. Never the browser's error name.
import { el } from '../lib/dom.js';

/** The browser whose steps to show. */
export function browserOf(ua = navigator.userAgent, touch = navigator.maxTouchPoints ?? 0) {
  if (/iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && touch > 1)) return 'ios';
  if (/Android/.test(ua)) return 'android';
  if (/Edg\//.test(ua)) return 'edge';
  if (/Firefox\//.test(ua)) return 'firefox';
  if (/Chrome\/|Chromium\//.test(ua)) return 'chrome';
  if (/Safari\//.test(ua)) return 'safari';
  return 'other';
}

const STEPS = { chrome: 'stepsChrome', edge: 'stepsEdge', firefox: 'stepsFirefox', safari: 'stepsSafari', ios: 'stepsIos', android: 'stepsAndroid', other: 'stepsOther' };

/** The problems worth telling: those of devices the person wants on. */
export function wantedProblems(c) {
  const { state, problems } = c;
  return { audio: state.audioOn ? problems.audio : null, video: state.videoOn ? problems.video : null };
}

/**
 * The help for `problems` ({audio, video}), or null when there is none.
 * `onRetry` tries the devices again; `onWithout` (optional) goes on without
 * the blocked ones (`onWithout({audio, video})`: which to leave off); `onChoose` (optional) opens the device choice.
 */
export function problemHelp(c, problems, { onRetry, onWithout, onChoose } = {}) {
  const { t } = c;
  const { audio, video } = problems;
  if (!audio && !video) return null;
  const parts = [];
  const buttons = [];
  const either = (kind) => (video === kind && audio === kind ? 'Both' : video === kind ? 'Video' : audio === kind ? 'Audio' : null);
  const blocked = either('blocked');
  if (blocked) {
    parts.push(el('p', { class: 'problem' }, t(`blocked${blocked}`)));
    const browser = browserOf();
    parts.push(el('p', {}, t('howTo')), el('ol', { class: 'steps', 'data-browser': browser }, ...t(STEPS[browser]).split('|').map((step) => el('li', {}, step))));
    if (browser !== 'ios' && browser !== 'android') parts.push(el('p', { class: 'tip' }, t('osHint')));
  }
  for (const [kind, text, help] of [
    ['missing', 'missing', 'missingHelp'],
    ['inUse', 'inUse', 'inUseHelp'],
    ['ended', 'ended', null],
  ]) {
    const which = [video === kind ? 'Video' : null, audio === kind ? 'Audio' : null].filter(Boolean);
    for (const w of which) parts.push(el('p', { class: 'problem' }, t(`${text}${w}`)));
    if (which.length && help) parts.push(el('p', {}, t(help)));
  }
  if (video === 'failed' || audio === 'failed') parts.push(el('p', { class: 'problem' }, t('otherProblem')), el('p', {}, t('otherHelp')));
  if (video === 'unsupported' || audio === 'unsupported') parts.push(el('p', { class: 'problem' }, t('unsupported')));
  if (onRetry) buttons.push(el('button', { type: 'button', class: 'primary small', id: 'retry-devices', onclick: onRetry }, t('retryDevices')));
  if (onChoose && (video === 'ended' || audio === 'ended' || video === 'inUse' || audio === 'inUse')) buttons.push(el('button', { type: 'button', class: 'small', id: 'choose-device', onclick: onChoose }, t('chooseDevice')));
  // Only what is blocked is left behind: a working microphone stays on when the camera alone is blocked.
  if (onWithout && blocked) buttons.push(el('button', { type: 'button', class: 'small', id: 'join-without', onclick: () => onWithout({ audio: audio === 'blocked', video: video === 'blocked' }) }, t(`joinWithout${blocked}`)));
  if (blocked && onWithout) parts.push(el('p', { class: 'tip' }, t(`withoutNote${blocked}`)));
  return el('div', { class: 'device-help', id: 'device-help', role: 'alert' }, ...parts, buttons.length ? el('div', { class: 'row' }, ...buttons) : null);
}
