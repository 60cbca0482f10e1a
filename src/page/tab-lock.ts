interface TabLockHolder {
  /** This tab holds the lock now, until it leaves or closes. */
  lead(): void;
  /** Another tab held the lock when this one joined: this one waits its turn. */
  follow(): void;
}

/**
 * A Web Lock one tab holds at a time; when it closes or crashes, the next tab waiting gets it.
 * Without Web Locks (`locks` undefined) every tab holds its own.
 */
export class TabLock {
  #release: (() => void) | undefined;
  #waiting: AbortController | undefined;

  constructor(
    private readonly locks: LockManager | undefined,
    private readonly name: string,
    private readonly holder: TabLockHolder,
  ) {}

  get held(): boolean {
    return this.#release !== undefined;
  }

  /** Takes the lock if it is free; else tells the holder to follow and queues for it. */
  join(): void {
    if (this.#release !== undefined || this.#waiting !== undefined) return;
    if (this.locks === undefined) return void this.#hold();
    this.locks
      .request(this.name, { ifAvailable: true }, (lock) => {
        if (lock !== null) return this.#hold();
        this.holder.follow();
        this.#queue();
        return undefined;
      })
      .catch(() => this.#queue());
  }

  /** Lets go of the lock, or leaves the queue: a frozen tab runs no code, so keeps neither. */
  leave(): void {
    this.#waiting?.abort();
    this.#waiting = undefined;
    this.#release?.();
    this.#release = undefined;
  }

  #queue(): void {
    if (this.#waiting !== undefined) return;
    const waiting = (this.#waiting = new AbortController());
    this.locks
      ?.request(this.name, { signal: waiting.signal }, () => {
        this.#waiting = undefined;
        return this.#hold();
      })
      // Aborted by leave(): the tab queues again when it resumes.
      .catch(() => {});
  }

  /** Held until the promise settles, which only leave() does. */
  #hold(): Promise<void> {
    return new Promise((resolve) => {
      this.#release = resolve;
      this.holder.lead();
    });
  }
}
