/**
 * @module realtime/sessions/sfu-chain
 * How an SFU link's steps on Janus run: one after another, so that
 * Janus's own work is serialized per link and never holds up the
 * participant's other messages; each within a deadline (janode's requests
 * wait forever for an answer); and in eras: the link's Janus going down
 * starts a new one, and the steps queued before that no longer hold up, or
 * undo, the ones after. A step that fails is logged, and the browser's
 * connection health takes over.
 */
import { videoRoomErrorCode } from '../../sfu/rooms.ts';
import type { RealtimeLogger } from '../session.ts';

/**
 * janode's requests wait forever for an answer: a Janus killed mid-request
 * would hold the link's every later step. A step gives up after this.
 */
export const STEP_DEADLINE_MS = 10_000;

/** A step Janus did not finish in time: the link no longer knows what Janus holds for it. */
export class SfuStepTimeout extends Error {
  override name = 'SfuStepTimeout';
  readonly code = 'SFU_STEP_TIMEOUT';
}

function withDeadline(work: Promise<void>, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SfuStepTimeout(`Janus did not answer (${what}) within ${STEP_DEADLINE_MS} ms`)), STEP_DEADLINE_MS);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** What the chain needs of its link's owner. */
export interface StepChainOwner {
  /** The participant's id (in the log). */
  readonly id: string;
  /** Keeps work the instance should wait for when it stops. */
  track<T>(promise: Promise<T>): Promise<T>;
}

/** One link's steps on Janus, in the order they came, in eras. */
export class StepChain {
  private chain: Promise<void> = Promise.resolve();
  /** Counts the link's Janus going down: the steps queued before that no longer hold up, or undo, the ones after. */
  private downs = 0;
  /** Ends a step's own wait at once (an offer's, for its turn): the participant left, or the link's Janus went down. */
  private waits = new AbortController();

  constructor(
    private readonly owner: StepChainOwner,
    private readonly log: RealtimeLogger,
    /** The participant left: what fails then is nobody's concern. */
    private readonly closed: () => boolean,
    /** A step of the current era outlived its deadline. */
    private readonly timedOut: () => void,
  ) {}

  /** The current era: a step that saw another one before an await has been overtaken by its Janus going down. */
  get era(): number {
    return this.downs;
  }

  /** What a step waits on besides Janus listens to this: it aborts when the era ends, or the participant leaves. */
  get signal(): AbortSignal {
    return this.waits.signal;
  }

  /** Runs `step` after every step before it; a failure is logged, and the browser's connection health takes over. */
  run(what: string, step: () => Promise<void>): Promise<void> {
    let era = -1;
    this.chain = this.chain
      .then(() => {
        era = this.downs;
        return withDeadline(step(), what);
      })
      .catch((error: Error) => {
        if (this.closed()) return;
        this.log.warn({ err: error, janus: videoRoomErrorCode(error), participant: this.owner.id }, `sfu: could not ${what}`);
        // A step left waiting on a Janus that went down since abandons nothing of the handles the link holds now.
        if (error instanceof SfuStepTimeout && era === this.downs) this.timedOut();
      });
    return this.owner.track(this.chain);
  }

  /** The link's Janus went down: a new era, and the steps that come next no longer wait for the ones queued before. */
  nextEra(): void {
    this.downs += 1;
    this.waits.abort();
    this.waits = new AbortController();
    this.chain = Promise.resolve();
  }

  /** The participant left: a step's own wait ends at once, so that it holds up none of the last steps (leaving). */
  endWaits(): void {
    this.waits.abort();
  }
}
