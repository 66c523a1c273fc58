import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createEnvelope } from '../../../src/events/create-envelope.js';
import type { MessageReceived } from '../../../src/events/inbound-event.js';
import { messagesFor } from '../../../src/i18n/messages.js';
import { createAttachmentStore } from '../../../src/media/attachment-store.js';
import { createAttachmentReader, type MediaDownloader } from '../../../src/media/create-attachment-reader.js';
import { createPdfTextReader } from '../../../src/media/extract-pdf-text.js';
import { createStore } from '../../../src/store/create-store.js';
import { createTemporaryFolder } from '../registry/registry-fixtures.js';

const mebibyte = 1024 * 1024;
const folders: ReturnType<typeof createTemporaryFolder>[] = [];
afterEach(() => {
  while (folders.length > 0) folders.pop()?.remove();
});

/** A 30 MB file sent on `channel`, as its adapter reports it. */
function bigFileFrom(channel: string): MessageReceived {
  return {
    ...createEnvelope({ channel, chatId: '1', sessionKey: `${channel}:1`, origin: 'user', now: new Date() }),
    type: 'message-received',
    sender: { id: '7', displayName: 'Ann' },
    text: 'here',
    media: [{ kind: 'document', id: 'file-1', fileName: 'film.zip', sizeBytes: 30 * mebibyte }],
    isGroup: false,
    mentioned: false,
  };
}

describe('attachments: each channel its own platform download limit', () => {
  it('refuses a file over one channel\'s platform limit and downloads it on a channel that declares none', async () => {
    const folder = createTemporaryFolder('attachments');
    folders.push(folder);
    const store = await createStore({ url: 'memory:', dataDir: folder.path });
    const downloaded: string[] = [];
    const download: MediaDownloader = async (reference, destination) => {
      downloaded.push(reference.id);
      writeFileSync(destination.path, 'PK\u0003\u0004 a small stand-in for the archive');
      return { ok: true, bytes: 40 };
    };
    const read = createAttachmentReader({
      store: createAttachmentStore({ directory: folder.path, keepMs: 60_000 }),
      downloaderFor: () => download,
      pdf: createPdfTextReader({ maxPages: 10, timeoutSeconds: 5, maxMemoryMb: 256 }),
      limits: { maxFileBytes: 50 * mebibyte, maxTurnBytes: 100 * mebibyte, maxImageBytes: 5 * mebibyte, maxTextChars: 1000 },
      canSeeImages: () => true,
      visionNotices: store.namespace<boolean>('vision-notices'),
      visionNoticeTtlMs: 60_000,
      audit: () => undefined,
      platformLimitFor: (channel) => (channel === 'small-platform' ? 20 * mebibyte : undefined),
    });
    const messages = messagesFor('en');

    const refused = await read({ event: bigFileFrom('small-platform'), messages });
    expect(refused.lines).toEqual([messages.attachmentTooLarge('film.zip', '20 MB', true)]);

    const accepted = await read({ event: bigFileFrom('roomy-platform'), messages });
    expect(accepted.lines).toEqual([]);
    expect(downloaded).toEqual(['file-1']);
    await store.close();
  });
});
