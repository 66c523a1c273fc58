import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';

/** The tool's name: the loop recognises its calls to start sub-tasks. */
export const delegateToolName = 'delegate';

/**
 * delegate: hands a task to a sub-task, a child turn with only the tools asked for (a subset of this
 * conversation's) and a slice of this turn's budget. The turn waits until the sub-task answers or fails;
 * its answer is this call's result. Risky calls of the sub-task raise their own approval cards.
 */
export const delegateTool = defineTool({
  name: delegateToolName,
  description:
    'Hand a self-contained task to a sub-task (a helper turn) and wait for its answer. Give it a short name, clear ' +
    'instructions (it sees nothing of this conversation), and only the tools it needs: it may use only tools you can ' +
    'use. Several delegate calls in one reply run side by side.',
  input: z.object({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'Use 1 to 40 lower-case letters, digits and dashes, e.g. fix-tests.')
      .describe('A short name for the sub-task, e.g. fix-tests.'),
    instructions: z.string().trim().min(1).max(8_000).describe('What the sub-task must do and answer, self-contained.'),
    tools: z.array(z.string().min(1).max(128)).max(32).describe('The tools the sub-task may use (a subset of yours; [] for none).'),
    limits: z
      .object({
        tokens: z.number().int().min(1).optional().describe('Tokens the sub-task may spend (default: what this turn has left).'),
        modelCalls: z.number().int().min(1).optional().describe('Model calls the sub-task may make.'),
        seconds: z.number().int().min(1).optional().describe('Wall-clock seconds the sub-task may run.'),
      })
      .optional()
      .describe('Its slice of this turn\'s budget; a unit left out gets what this turn has left of it.'),
  }),
  risk: 'write',
  // Not asked itself: every risky call the sub-task makes raises its own card naming the chain and its tools.
  approval: 'never',
  describeForApproval: (input) => `Start sub-task ${input.name} with tools ${input.tools.join(', ') || '(none)'}`,
  execute: async (input, context) => ({
    ok: true,
    output: `Starting sub-task ${input.name}.`,
    metadata: { awaitDelegation: { name: input.name, instructions: input.instructions, tools: input.tools, limits: input.limits ?? {}, executionId: context.executionId } },
  }),
});
