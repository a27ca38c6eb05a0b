// @module public/js/lib/signalling — the WebSocket client of docs/signalling.md.
// Knows the transport only (JSON messages, keepalive, the close code), not
// what a page does with them, so every page with a live connection uses it.
// Emits every server message to `onMessage`; `onClose(code)` when the socket ends.
export class Signalling {
  constructor(path, { onMessage, onClose, keepaliveMs = 20000 }) {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    this.socket = new WebSocket(`${scheme}//${location.host}${path}`);
    this.onMessage = onMessage;
    this.onClose = onClose;
    this.opened = new Promise((resolve, reject) => {
      this.socket.addEventListener('open', () => resolve());
      this.socket.addEventListener('error', () => reject(new Error('signalling unavailable')));
    });
    this.socket.addEventListener('message', (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    // Application-level keepalive: some proxies drop idle sockets that only carry server pings.
    this.keepalive = setInterval(() => this.send({ type: 'ping' }), keepaliveMs);
    this.socket.addEventListener('close', (event) => {
      // A dropped socket is replaced by a new Signalling on reconnect; its timer must not outlive it.
      clearInterval(this.keepalive);
      this.onClose(event.code);
    });
  }

  send(message) {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  close() {
    clearInterval(this.keepalive);
    try {
      this.socket.close(1000);
    } catch {
      // already closed
    }
  }
}
