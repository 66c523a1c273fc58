import { z } from 'zod';

/** `runtime`: settings of the Node.js process itself, applied when `start` or `chat` begins. */
export const runtimeSchema = z
  .strictObject({
    heapGrowthPercent: z.coerce
      .number()
      .int()
      .refine((percent) => percent === 0 || (percent >= 10 && percent <= 300), '0 (V8 decides), or 10 to 300')
      .default(50)
      .describe(
        'How far the JavaScript heap may grow past what the last full garbage collection kept before the next one runs, in percent (50: up to 1.5 times). Keeps resident memory small under a burst, at the price of more full collections: near its saturation the slowest 1 % of turns wait a few milliseconds longer (docs/performance.md). 0 leaves it to V8, which lets a fast process grow up to 4 times.',
      ),
  })
  .prefault({})
  .describe('The Node.js process: how it trades memory against CPU.');
