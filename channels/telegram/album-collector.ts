import type { EmitResult } from '../../src/events/channel.js';
import type { MessageReceived } from '../../src/events/inbound-event.js';
import { EchoError } from '../../src/errors/echo-error.js';

/** Joins the parts of a Telegram album (one `media_group_id`) into one message, emitted once. */
export type AlbumCollector = {
  /** Adds a part; the joined message is emitted when no new part came for the window. */
  add(albumKey: string, part: MessageReceived): void;
};

type Pending = { readonly parts: MessageReceived[]; timer: NodeJS.Timeout };

/**
 * Creates the collector: the parts of an album arrive as separate updates, possibly in separate polls; each one
 * restarts a short window, and when it passes without a new part the parts are joined (in message order: captions
 * joined, media in order) and emitted as one message. `onEmitted` hears how that went, to tell the person when the
 * album could not be taken. A part is acknowledged to Telegram when collected: a crash inside the window loses the album.
 */
export function createAlbumCollector(options: {
  readonly windowMs: number;
  readonly emit: (event: MessageReceived) => Promise<EmitResult>;
  readonly onEmitted: (album: MessageReceived, result: EmitResult) => Promise<void>;
}): AlbumCollector {
  const pending = new Map<string, Pending>();

  const flush = async (albumKey: string) => {
    const album = pending.get(albumKey);
    if (!album) return;
    pending.delete(albumKey);
    const joined = joinParts(album.parts);
    const result = await options.emit(joined).catch((): EmitResult => ({ accepted: false, reason: 'unavailable' }));
    await options.onEmitted(joined, result);
  };

  return {
    add(albumKey, part) {
      const album = pending.get(albumKey);
      const timer = setTimeout(() => void flush(albumKey), options.windowMs);
      if (album) {
        clearTimeout(album.timer);
        album.parts.push(part);
        album.timer = timer;
      } else pending.set(albumKey, { parts: [part], timer });
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
