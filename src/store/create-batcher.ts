/** Runs a batch of requests as one round trip; resolves to one answer per request, in order. */
export type BatchRunner<Request, Answer> = (requests: readonly Request[]) => Promise<readonly Answer[]>;

/** Sends requests through group commit: call it for a promise of the answer, or `enqueue` it with callbacks. */
export type Batcher<Request, Answer> = {
  (request: Request): Promise<Answer>;
  /**
   * The same without a promise of its own: the answer goes to `resolve`, a failure to `reject`. The store hands
   * its guard's callbacks here, so a store call makes one promise, not three.
   */
  readonly enqueue: (request: Request, resolve: (answer: Answer) => void, reject: (error: unknown) => void) => void;
};

type Waiting<Request, Answer> = { readonly request: Request; readonly resolve: (answer: Answer) => void; readonly reject: (error: unknown) => void };

/** The most requests one batch carries. */
const maxBatch = 500;

/**
 * Group commit: a request made while fewer than `maxInFlight` batches are in flight goes at once;
 * requests made while the backend is busy wait and then go together in one round trip. Under load
 * that turns many round trips into a few, and it never delays a request when there is no load.
 */
export function createBatcher<Request, Answer>(run: BatchRunner<Request, Answer>, options: { readonly maxInFlight?: number } = {}): Batcher<Request, Answer> {
  const maxInFlight = options.maxInFlight ?? 2;
  let queue: Waiting<Request, Answer>[] = [];
  let inFlight = 0;

  function flush(): void {
    while (queue.length > 0 && inFlight < maxInFlight) {
      // The whole queue when it fits (the usual case): no copy.
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = batch === queue ? [] : queue.slice(batch.length);
      inFlight += 1;
      run(batch.map((waiting) => waiting.request))
        .then(
          (answers) => {
            for (const [index, waiting] of batch.entries()) waiting.resolve(answers[index] as Answer);
          },
          (error: unknown) => {
            // One failed statement fails every request it carried: none of them may count as done.
            for (const waiting of batch) waiting.reject(error);
          },
        )
        .finally(() => {
          inFlight -= 1;
          flush();
        });
    }
  }

  const enqueue = (request: Request, resolve: (answer: Answer) => void, reject: (error: unknown) => void): void => {
    queue.push({ request, resolve, reject });
    flush();
  };
  return Object.assign((request: Request) => new Promise<Answer>((resolve, reject) => enqueue(request, resolve, reject)), { enqueue });
}
