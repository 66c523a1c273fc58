import type { EmitResult } from '../../src/events/channel.js';
import type { MessageReceived } from '../../src/events/inbound-event.js';
import { EchoError } from '../../src/errors/echo-error.js';

/** Joins the parts of a Telegram album (one `media_group_id`) into one message, emitted once. */
export type AlbumCollector = {
  /** Adds a part; resolves with the result of emitting the joined message, for every part alike. */
  add(albumKey: string, part: MessageReceived): Promise<EmitResult>;
};

type Pending = { readonly parts: MessageReceived[]; timer: NodeJS.Timeout; readonly waiters: ((result: EmitResult) => void)[] };

/**
 * Creates the collector: the parts of an album arrive as separate updates; each one restarts a short window, and
 * when it passes without a new part the parts are joined (in message order: captions joined, media in order) and
 * emitted as one message. Every part waits for that emit, so none is acknowledged before the album is recorded.
 */
export function createAlbumCollector(options: { readonly windowMs: number; readonly emit: (event: MessageReceived) => Promise<EmitResult> }): AlbumCollector {
  const pending = new Map<string, Pending>();

  const flush = (albumKey: string) => {
    const album = pending.get(albumKey);
    if (!album) return;
    pending.delete(albumKey);
    const joined = joinParts(album.parts);
    void options.emit(joined).then(
      (result) => {
        for (const resolve of album.waiters) resolve(result);
      },
      () => {
        for (const resolve of album.waiters) resolve({ accepted: false, reason: 'unavailable' });
      },
    );
  };

  return {
    add(albumKey, part) {
      return new Promise<EmitResult>((resolve) => {
        const album = pending.get(albumKey);
        if (album) {
          clearTimeout(album.timer);
          album.parts.push(part);
          album.waiters.push(resolve);
          album.timer = setTimeout(() => flush(albumKey), options.windowMs);
          return;
        }
        pending.set(albumKey, { parts: [part], waiters: [resolve], timer: setTimeout(() => flush(albumKey), options.windowMs) });
      });
    },
  };
}

/** The parts as one message: the first part's envelope, every caption, every medium, in message order. Pure. */
export function joinParts(parts: readonly MessageReceived[]): MessageReceived {
  const ordered = [...parts].sort((left, right) => Number(left.messageId ?? 0) - Number(right.messageId ?? 0));
  const [first, ...rest] = ordered;
  if (!first) throw new EchoError('album-empty', 'an album has at least one part');
  return {
    ...first,
    text: ordered.map((part) => part.text).filter((text) => text !== '').join('\n'),
    media: ordered.flatMap((part) => part.media),
    mentioned: ordered.some((part) => part.mentioned),
    ...(rest.length > 0 ? { raw: ordered.map((part) => part.raw) } : {}),
  };
}
