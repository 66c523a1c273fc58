import type { Delivery, FileSent } from '../../src/events/outbound-event.js';
import type { TelegramTransport } from './telegram-transport.js';

/** Telegram's longest caption. */
const captionLimit = 1024;
/** sendPhoto takes JPEG and PNG up to 10 MB; anything else goes as a document (sent as is, never recompressed). */
const photoTypes: ReadonlySet<string> = new Set(['image/jpeg', 'image/png']);
const photoLimitBytes = 10 * 1024 * 1024;

/** Sends a workspace file: sendPhoto for a photo, sendDocument for anything else; the upload streams from disk. */
export async function sendFile(transport: TelegramTransport, event: FileSent): Promise<Delivery> {
  const asPhoto = photoTypes.has(event.mediaType) && event.sizeBytes <= photoLimitBytes;
  const method = asPhoto ? 'sendPhoto' : 'sendDocument';
  const payload = {
    chat_id: event.target.chatId,
    ...(event.target.threadId === undefined ? {} : { message_thread_id: Number(event.target.threadId) }),
    // A path as `source`: telegraf opens a new read stream for each attempt, so a retry uploads the whole file again.
    [asPhoto ? 'photo' : 'document']: { source: event.path, filename: event.fileName },
    ...(event.caption ? { caption: event.caption.slice(0, captionLimit) } : {}),
  };
  const result = await transport.call<{ message_id?: number }>(method, payload, { policy: 'visible', chatId: event.target.chatId, timeoutMs: 120_000 });
  if (!result.ok) return { ok: false, error: result.error, retryable: result.retryable };
  const messageId = result.value?.message_id;
  return messageId === undefined ? { ok: true } : { ok: true, messageId: String(messageId) };
}
