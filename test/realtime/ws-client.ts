/**
 * @module test/realtime/ws-client
 * A signalling client for tests (the `ws` package, as the server uses):
 * collects every server message and waits for the ones a test expects.
 */
// @ts-expect-error ws ships no typings; this module types the part it uses.
import WebSocketImpl from 'ws';

interface RawSocket {
  on(event: string, listener: (...args: any[]) => void): void;
  send(data: string | Buffer): void;
  close(code?: number): void;
  terminate(): void;
  pause(): void;
  readyState: number;
}

export interface Message {
  type: string;
  [key: string]: any;
}

export class TestClient {
  readonly messages: Message[] = [];
  closeCode: number | undefined;
  private waiters: Array<() => void> = [];
  readonly closed: Promise<number>;

  private constructor(private readonly socket: RawSocket) {
    socket.on('message', (data: Buffer) => {
      this.messages.push(JSON.parse(data.toString('utf8')) as Message);
      this.wake();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code: number) => {
        this.closeCode = code;
        this.wake();
        resolve(code);
      });
    });
    socket.on('error', () => {});
  }

  /** `autoPong: false` makes a client that looks alive but never answers pings. */
  static async connect(origin: string, options: { autoPong?: boolean; headers?: Record<string, string> } = {}): Promise<TestClient> {
    const socket = new WebSocketImpl(origin.replace(/^http/, 'ws') + '/ws', { autoPong: options.autoPong ?? true, headers: options.headers }) as RawSocket;
    // Listening from the start: a message may arrive in the same read as the upgrade's answer.
    const client = new TestClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.on('open', () => resolve());
      socket.on('error', reject);
    });
    return client;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  sendRaw(data: string | Buffer): void {
    this.socket.send(data);
  }

  close(): void {
    this.socket.close(1000);
  }

  /** Vanishes without a closing handshake (a cut cable, a killed browser). */
  terminate(): void {
    this.socket.terminate();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** The first message (from `from` on) matching `predicate`, waiting up to `timeoutMs`. */
  async next(predicate: (m: Message) => boolean, timeoutMs = 5000, from = 0): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find(predicate);
      if (found) return found;
      if (this.closeCode !== undefined) throw new Error(`socket closed (${this.closeCode}) before the expected message; got ${JSON.stringify(this.messages)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until the latest participants list (welcome or update) has exactly these names. */
  async participantsBecome(names: string[], timeoutMs = 5000): Promise<Message[]> {
    const want = [...names].sort().join('|');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lists = this.messages.filter((m) => m.type === 'participants' || m.type === 'welcome');
      const last = lists.at(-1);
      const got = last ? (last.participants as Array<{ name: string }>).map((p) => p.name).sort().join('|') : '';
      if (got === want) return last!.participants;
      if (Date.now() > deadline) throw new Error(`participants are [${got}], expected [${want}]`);
      await this.next(() => true, Math.max(1, deadline - Date.now()), this.messages.length).catch(() => {});
    }
  }

  /** The newest message of `type`, waiting for one that satisfies `predicate` (from the start of the socket). */
  async latest(type: string, predicate: (m: Message) => boolean, timeoutMs = 5000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const last = this.messages.filter((m) => m.type === type).at(-1);
      if (last && predicate(last)) return last;
      const left = deadline - Date.now();
      if (left <= 0 || this.closeCode !== undefined) throw new Error(`no matching ${type} (closed: ${this.closeCode}); last: ${JSON.stringify(last)}`);
      await this.next(() => true, left, this.messages.length).catch(() => {});
    }
  }

  /** Sends `ping` and waits for its `pong`: what was sent before has been handled (a socket's messages are handled in order). */
  async roundTrip(timeoutMs = 30_000): Promise<void> {
    const from = this.messages.length;
    this.send({ type: 'ping' });
    await this.next((m) => m.type === 'pong', timeoutMs, from);
  }

  async join(target: { meetingId: string } | { slug: string }, name: string): Promise<Message> {
    this.send({ type: 'join', ...target, name, audio: true, video: true });
    return this.next((m) => m.type === 'welcome' || m.type === 'error');
  }
}
