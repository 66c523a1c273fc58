/** Runs a batch of requests as one round trip; resolves to one answer per request, in order. */
export type BatchRunner<Request, Answer> = (requests: readonly Request[]) => Promise<readonly Answer[]>;

type Waiting<Request, Answer> = { readonly request: Request; readonly resolve: (answer: Answer) => void; readonly reject: (error: unknown) => void };

/** The most requests one batch carries. */
const maxBatch = 500;

/**
 * Group commit: a request made while fewer than `maxInFlight` batches are in flight goes at once;
 * requests made while the backend is busy wait and then go together in one round trip. Under load
 * that turns many round trips into a few, and it never delays a request when there is no load.
 */
export function createBatcher<Request, Answer>(run: BatchRunner<Request, Answer>, options: { readonly maxInFlight?: number } = {}): (request: Request) => Promise<Answer> {
  const maxInFlight = options.maxInFlight ?? 2;
  let queue: Waiting<Request, Answer>[] = [];
  let inFlight = 0;

  function flush(): void {
    while (queue.length > 0 && inFlight < maxInFlight) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
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

  return (request) =>
    new Promise<Answer>((resolve, reject) => {
      queue.push({ request, resolve, reject });
      flush();
    });
}
