import { z } from 'zod';

const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }).optional(),
});

const usageSchema = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().optional() }).nullish(),
});

/** The fields of a (non-streamed) chat completion that the provider reads; servers may send more. */
export const chatCompletionSchema = z.looseObject({
  choices: z.array(
    z.looseObject({
      message: z.looseObject({
        content: z.string().nullish(),
        tool_calls: z.array(toolCallSchema).nullish(),
      }),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: usageSchema.nullish(),
});

/** A chat completion as read from the wire. */
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

/** An OpenAI-style error body: `{ "error": { "message": "..." } }`. */
export const errorBodySchema = z.looseObject({ error: z.looseObject({ message: z.string() }) });
