import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';

/** Long polling on the emulator: what `holdLongPolls` returns. */
export type LongPolls = {
  /** Answers every held poll with what it has (nothing), so the server can close. */
  release(): void;
};

type HeldPoll = { readonly token: string; answer(): void };

const userEvents = ['AddedUserMessage', 'AddedUserCommand', 'AddedUserCallbackQuery'] as const;

/**
 * Makes telegram-test-api hold a `getUpdates` with a `timeout` until an update for that bot arrives or the timeout
 * passes, as the Bot API does, instead of answering at once with nothing. A bot then sees a message the moment it is
 * sent, not at its next poll after a sleep, so a benchmark's round trip does not depend on where in a bot's poll
 * cycle the message landed. A poll the bot abandons (it stopped) takes nothing. Other requests go to the emulator.
 */
export function holdLongPolls(server: TelegramServer): LongPolls {
  // The emulator's HTTP server and its Express app, private in its typings: the app is a `request` listener.
  const internals = server as unknown as { readonly server: Server; readonly webServer: (request: IncomingMessage, response: ServerResponse) => void };
  const http = internals.server;
  const express = internals.webServer;
  const held = new Set<HeldPoll>();

  const hasUnread = (token: string) => server.storage.userMessages.some((update) => update.botToken === token && !update.isRead);
  const onUserUpdate = () => {
    for (const poll of [...held]) if (hasUnread(poll.token)) poll.answer();
  };
  for (const event of userEvents) server.on(event, onUserUpdate);

  const hold = (token: string, timeoutSeconds: number, response: ServerResponse) => {
    const send = () => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ ok: true, result: server.getUpdates(token) }));
    };
    if (timeoutSeconds <= 0 || hasUnread(token)) {
      send();
      return;
    }
    const poll: HeldPoll = {
      token,
      answer() {
        done();
        send();
      },
    };
    const timer = setTimeout(() => poll.answer(), timeoutSeconds * 1000);
    const done = () => {
      clearTimeout(timer);
      held.delete(poll);
    };
    // Abandoned (the bot aborted its poll, closing the connection): nothing is marked read, the next poll gets it.
    // The response's `close`, not the request's: a request closes as soon as its body has been read.
    response.once('close', () => {
      if (!response.writableEnded) done();
    });
    held.add(poll);
  };

  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://emulator');
    const token = /^\/bot([^/]+)\/getUpdates$/.exec(url.pathname)?.[1];
    if (token === undefined) {
      express(request, response);
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let timeout = Number(url.searchParams.get('timeout') ?? 0);
      if (text.length > 0) {
        const fields = readFields(text, request.headers['content-type'] ?? '');
        if (fields.timeout !== undefined) timeout = Number(fields.timeout);
      }
      hold(token, Number.isFinite(timeout) ? Math.min(timeout, 50) : 0, response);
    });
  };
  http.removeListener('request', express);
  http.prependListener('request', onRequest);

  return {
    release() {
      for (const event of userEvents) server.off(event, onUserUpdate);
      for (const poll of [...held]) poll.answer();
    },
  };
}

/** The parameters of a form or JSON body; a body that is neither has none (the poll is then answered at once). */
function readFields(text: string, contentType: string): Record<string, unknown> {
  if (!contentType.includes('json')) return Object.fromEntries(new URLSearchParams(text));
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
