import { z } from 'zod';

/** Texts as vectors, or why not (the caller then ranks by keywords alone). */
export type EmbeddingsResult = { readonly ok: true; readonly vectors: readonly (readonly number[])[]; readonly inputTokens?: number } | { readonly ok: false; readonly error: string };

/** An OpenAI-compatible embeddings endpoint. */
export interface EmbeddingsClient {
  readonly model: string;
  embed(texts: readonly string[]): Promise<EmbeddingsResult>;
}

const answerSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()).min(1) })),
  usage: z.object({ prompt_tokens: z.number().int().min(0) }).optional(),
});

/** Creates the client: one `POST <baseUrl>/embeddings` per call, its answer validated, failures as values. */
export function createEmbeddingsClient(options: { readonly baseUrl: string; readonly model: string; readonly apiKey?: string; readonly timeoutMs: number; readonly fetch?: typeof fetch }): EmbeddingsClient {
  const doFetch = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  return {
    model: options.model,
    async embed(texts) {
      if (texts.length === 0) return { ok: true, vectors: [] };
      try {
        const response = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }) },
          body: JSON.stringify({ model: options.model, input: texts }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        if (!response.ok) return { ok: false, error: `embeddings endpoint answered HTTP ${response.status}` };
        const parsed = answerSchema.safeParse(await response.json());
        if (!parsed.success || parsed.data.data.length !== texts.length) return { ok: false, error: 'embeddings answer is not of the expected shape' };
        const vectors = [...parsed.data.data].sort((left, right) => left.index - right.index).map((item) => item.embedding);
        return { ok: true, vectors, ...(parsed.data.usage === undefined ? {} : { inputTokens: parsed.data.usage.prompt_tokens }) };
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
