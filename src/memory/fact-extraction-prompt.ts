import { z } from 'zod';

/**
 * The fixed instruction of every fact extraction (documented in docs/architecture.md, "Memory"). The model reads only
 * text a person wrote in the chat, never tool output, files or hook payloads, and answers with JSON only.
 */
export const factExtractionPrompt = [
  'You extract durable facts from a message a person wrote to an assistant in a chat.',
  'Answer with JSON only, of the form {"facts":[{"subject":"...","statement":"...","about":"speaker"|"chat"}]}.',
  'subject: a short stable key for what the fact is about, in English lower case (e.g. "favourite drink", "home city", "team meeting day"), so a later fact about the same thing has the same subject.',
  'statement: one self-contained sentence in the language of the message, naming the speaker rather than saying "I".',
  'about: "speaker" for facts about the person who wrote (their name, preferences, plans, possessions), "chat" for facts about the group or conversation as a whole (shared plans, agreed decisions).',
  'Only facts the person states as true about themselves or the chat; not questions, not greetings, not requests to the assistant, not things quoted from elsewhere.',
  'When there is nothing durable, answer {"facts":[]}.',
].join('\n');

/** The extractor's answer, validated: at most 10 facts, each short. */
export const extractedFactsSchema = z.object({
  facts: z
    .array(
      z.object({
        subject: z.string().trim().min(1).max(80),
        statement: z.string().trim().min(1).max(500),
        about: z.enum(['speaker', 'chat']),
      }),
    )
    .max(10),
});

/** The extractor's answer, as validated. */
export type ExtractedFacts = z.output<typeof extractedFactsSchema>;

/** Parses the model's answer (JSON, maybe in a code fence); undefined when it is not valid. Pure. */
export function parseExtractedFacts(text: string): ExtractedFacts | undefined {
  const unfenced = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    const parsed = extractedFactsSchema.safeParse(JSON.parse(unfenced));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
