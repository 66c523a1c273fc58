/** What an answer carries beside its content: the pending card, when the turn waits for one. */
export type EchoExtras = { readonly approval?: { readonly id: string; readonly summary: string; readonly tool: string; readonly expiresAt: string }; readonly conversation: string };

/** The ids and names every object of one response shares. */
export type CompletionHeader = { readonly id: string; readonly model: string; readonly created: number };

/** A `chat.completion` object as OpenAI clients read it (usage is not reported per request). Pure. */
export function completionObject(header: CompletionHeader, content: string, extras: EchoExtras) {
  return {
    id: header.id,
    object: 'chat.completion',
    created: header.created,
    model: header.model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
    echo: extras,
  } as const;
}

/** One `chat.completion.chunk` of a stream: a role, a piece of content, or the finish. Pure. */
export function completionChunk(header: CompletionHeader, delta: { readonly role?: 'assistant'; readonly content?: string }, finish?: 'stop', extras?: EchoExtras) {
  return {
    id: header.id,
    object: 'chat.completion.chunk',
    created: header.created,
    model: header.model,
    choices: [{ index: 0, delta, finish_reason: finish ?? null, logprobs: null }],
    ...(extras ? { echo: extras } : {}),
  } as const;
}

/** One server-sent event carrying JSON, or the closing `[DONE]`. Pure. */
export function sseData(payload: unknown): string {
  return `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
}
