import type { Context } from 'koa';
import { discardRefusedBody } from './discard-refused-body.js';

/** A request body read as an HTML form (`application/x-www-form-urlencoded`): its fields (first value of each), or why not. */
export type FormBody = { readonly ok: true; readonly fields: Readonly<Record<string, string>> } | { readonly ok: false; readonly status: 413 | 415; readonly message: string };

/** Reads form bodies up to `limitBytes` (a form of buttons and a token is small); a larger one is refused and dropped. */
export function createFormBodyReader(options: { readonly limitBytes: number }): (context: Context) => Promise<FormBody> {
  return async (context) => {
    if (!context.is('application/x-www-form-urlencoded')) return { ok: false, status: 415, message: 'Send the form as application/x-www-form-urlencoded.' };
    const declared = Number(context.get('content-length') || '0');
    if (declared > options.limitBytes) {
      discardRefusedBody(context.req, context.res);
      return { ok: false, status: 413, message: `The form is larger than ${options.limitBytes} bytes.` };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of context.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > options.limitBytes) {
        discardRefusedBody(context.req, context.res);
        return { ok: false, status: 413, message: `The form is larger than ${options.limitBytes} bytes.` };
      }
      chunks.push(chunk);
    }
    const fields: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) if (!(name in fields)) fields[name] = value;
    return { ok: true, fields };
  };
}
