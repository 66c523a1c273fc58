import { join } from 'node:path';
import type { Config } from '../config/config-schema.js';
import type { Channel } from '../events/channel.js';
import type { Logger } from '../logging/create-logger.js';
import { createAttachmentReader, type AttachmentReader } from '../media/create-attachment-reader.js';
import { createAttachmentStore } from '../media/attachment-store.js';
import { createImageInputModel, createVisionState } from '../media/create-image-input-model.js';
import { createPdfTextReader } from '../media/extract-pdf-text.js';
import { createTranscriber } from '../media/transcribe-audio.js';
import type { ModelPort } from '../model/model-port.js';
import type { AuditEntry } from '../registry/audit-log.js';
import type { Store } from '../store/key-value-namespace.js';

/** Attachments wired for one app: the reader the runtime uses, the model that sees images, and the purge schedule. */
export type MediaWiring = {
  readonly readAttachments: AttachmentReader;
  /** The model, given image bytes from the attachment store (or text notes when it cannot see images). */
  readonly model: ModelPort;
  /** Purges expired files now and then every `storage.purgeEveryMinutes`. */
  start(): void;
  /** Stops the purges and kills PDF readers still running. */
  stop(): void;
};

/** Builds attachment handling from `media` and `model.transcription`; files live in `<dataDir>/attachments`. */
export function wireMedia(options: {
  readonly config: Config;
  readonly logger: Logger;
  readonly store: Store;
  readonly model: ModelPort;
  readonly channels: ReadonlyMap<string, Channel>;
  /** The largest file a channel's platform lets a bot download, as its adapter declares (none: only `media` limits). */
  readonly downloadLimitFor: (channel: string) => number | undefined;
  readonly audit: (entry: AuditEntry) => void;
}): MediaWiring {
  const { config, logger } = options;
  const attachments = createAttachmentStore({ directory: join(config.storage.dataDir, 'attachments'), keepMs: config.media.keepHours * 60 * 60_000 });
  const vision = createVisionState(config.model.primary.vision);
  const transcription = config.model.transcription;
  const pdf = createPdfTextReader(config.media.pdf);
  const readAttachments = createAttachmentReader({
    store: attachments,
    downloaderFor: (channel) => {
      const found = options.channels.get(channel);
      return found?.downloadMedia?.bind(found);
    },
    transcribe: transcription.baseUrl ? createTranscriber({ baseUrl: transcription.baseUrl, apiKey: transcription.apiKey, model: transcription.model, timeoutMs: transcription.timeoutMs }) : undefined,
    pdf,
    limits: config.media,
    canSeeImages: vision.canSeeImages,
    visionNotices: options.store.namespace<boolean>('vision-notices'),
    visionNoticeTtlMs: config.storage.sessionIdleDays * 24 * 60 * 60_000,
    audit: options.audit,
    platformLimitFor: options.downloadLimitFor,
    logger,
  });
  let timer: NodeJS.Timeout | undefined;
  const purge = () =>
    void attachments.purge().then(
      (purged) => logger.debug({ purged }, 'expired attachments purged'),
      (error: unknown) => logger.warn({ err: error }, 'purge of expired attachments failed'),
    );
  return {
    readAttachments,
    model: createImageInputModel(options.model, { store: attachments, vision }),
    start() {
      purge();
      timer = setInterval(purge, config.storage.purgeEveryMinutes * 60_000);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      pdf.stop();
    },
  };
}
