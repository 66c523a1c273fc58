import { openAsBlob } from 'node:fs';

/** A transcript, or why there is none (a value, never a throw). */
export type Transcription = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

/** Speech to text for one stored audio file. */
export type Transcriber = (input: { readonly path: string; readonly fileName: string; readonly mediaType: string; readonly signal?: AbortSignal }) => Promise<Transcription>;

/** Where the OpenAI-compatible transcription endpoint is (`model.transcription`). */
export type TranscriberOptions = {
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly model: string;
  readonly timeoutMs: number;
};

/**
 * A client of an OpenAI-compatible `POST <baseUrl>/audio/transcriptions` (OpenAI, local whisper servers): the file
 * goes as multipart form data read from disk (a file-backed Blob, never loaded whole), the answer's `text` is the transcript.
 */
export function createTranscriber(options: TranscriberOptions): Transcriber {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;
  return async ({ path, fileName, mediaType, signal }) => {
    const form = new FormData();
    form.set('model', options.model);
    form.set('response_format', 'json');
    form.set('file', await openAsBlob(path, { type: mediaType }), fileName);
    const timeout = AbortSignal.timeout(options.timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        body: form,
        headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      return { ok: false, error: timeout.aborted ? `no answer within ${options.timeoutMs} ms` : `the endpoint could not be reached (${error instanceof Error ? error.name : 'error'})` };
    }
    const body = await response.text().catch(() => '');
    if (!response.ok) return { ok: false, error: `the endpoint answered HTTP ${response.status}` };
    try {
      const parsed = JSON.parse(body) as { text?: unknown };
      if (typeof parsed.text === 'string') return { ok: true, text: parsed.text.trim() };
    } catch {
      // Some servers answer plain text despite response_format=json.
      if (body.trim() !== '') return { ok: true, text: body.trim() };
    }
    return { ok: false, error: 'the endpoint answered without a transcript' };
  };
}
