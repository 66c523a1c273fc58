import { z } from 'zod';

/** One budget: a number of tokens (input, cached input and output together), an amount of money, or both. */
const budgetAmountSchema = z
  .strictObject({
    tokens: z.coerce.number().int().positive().optional().describe('Tokens (input, cached input and output together).'),
    cost: z.coerce.number().positive().optional().describe('Money, in the currency of the price table (prices); models without a price count tokens only.'),
  })
  .refine((amount) => amount.tokens !== undefined || amount.cost !== undefined, { message: 'give tokens, cost or both' });

/** A scope's budgets per calendar day and month, in agent.timezone. */
export const budgetPeriodsSchema = z.strictObject({
  daily: budgetAmountSchema.optional().describe('Per calendar day in agent.timezone.'),
  monthly: budgetAmountSchema.optional().describe('Per calendar month in agent.timezone.'),
});
