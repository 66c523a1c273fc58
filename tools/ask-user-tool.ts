import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';

/** ask_user: asks the person a question with options and suspends the turn until they pick one. */
export const askUserTool = defineTool({
  name: 'ask_user',
  description:
    'Ask the person a multiple-choice question and wait for their answer before continuing. Use it when you need a ' +
    'decision you cannot make yourself. Offer 2 to 6 short, distinct options; they are shown as buttons.',
  input: z.object({
    question: z.string().min(1).max(1_000).describe('The question, in one or two sentences.'),
    options: z
      .array(z.string().trim().min(1).max(100).describe('One answer the person can pick, a few words long.'))
      .min(2)
      .max(6)
      .refine((options) => new Set(options).size === options.length, 'The options must differ from each other.')
      .describe('The answers to choose from (2 to 6, each different).'),
  }),
  risk: 'read_only',
  approval: 'never',
  describeForApproval: (input) => `Ask: "${input.question}" (${input.options.join(' / ')})`,
  execute: async (input) => ({
    ok: true,
    output: 'Waiting for the person to answer.',
    awaitAnswer: { question: input.question, options: input.options },
  }),
});
