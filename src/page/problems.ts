import { ApiError } from './api-request.ts';

/** The part of the view that shows why a request failed. */
export interface ProblemView {
  showProblem(detail: string | undefined): void;
}

/**
 * The one line that says why the last request failed, whichever control sent it. A failure to
 * reach the service goes once the stream is open again; a refusal (a title too long, say)
 * stays until the next request.
 */
export class Problems {
  /** The problem on screen came from not reaching the service. */
  #transient = false;

  constructor(private readonly view: ProblemView) {}

  show(error: unknown): void {
    if (error instanceof ApiError) this.#set(error.detail, error.transient);
    else this.#set('Something went wrong. Try again.', true);
  }

  clear(): void {
    this.#set(undefined, false);
  }

  /** The service is reachable again: an earlier failure to reach it is no longer news. */
  reconnected(): void {
    if (this.#transient) this.clear();
  }

  #set(detail: string | undefined, transient: boolean): void {
    this.#transient = detail !== undefined && transient;
    this.view.showProblem(detail);
  }
}
