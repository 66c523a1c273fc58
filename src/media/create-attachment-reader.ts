import type { MediaReference, MessageReceived } from '../events/inbound-event.js';
import type { MediaDestination, MediaDownloadResult } from '../events/media-download-result.js';
import type { Messages } from '../i18n/messages.js';
import type { Logger } from '../logging/create-logger.js';
import type { ImageInput } from '../model/chat-message.js';
import type { AuditEntry } from '../registry/audit-log.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { AttachmentStore } from './attachment-store.js';
import { detectFileTypeOf, type FileType } from './detect-file-type.js';
import type { PdfTextReader } from './extract-pdf-text.js';
import { describeBytes, describeReference, safeName } from './describe-reference.js';
import { readTextPrefix } from './read-text-prefix.js';
import type { Transcriber } from './transcribe-audio.js';

/** A channel's way to stream one of its media references to disk. */
export type MediaDownloader = (reference: MediaReference, destination: MediaDestination) => Promise<MediaDownloadResult>;

/** The limits of `media` in the config that reading applies. */
export type AttachmentLimits = {
  readonly maxFileBytes: number;
  readonly maxTurnBytes: number;
  readonly maxImageBytes: number;
  readonly maxTextChars: number;
};

/** What a message's attachments became: text for the model, images, and lines the person is told. */
export type AttachmentReading = {
  /** Notes, transcripts and file text, appended to the message the model reads. */
  readonly text: string;
  readonly images: readonly ImageInput[];
  /** Said to the person before the turn (a file too large, no transcription, a text-only model). */
  readonly lines: readonly string[];
  /** True when nothing reached the model but voice that could not be transcribed: the lines are the whole answer. */
  readonly onlyUnheardVoice: boolean;
};

/** Turns the media of a message into model input. */
export type AttachmentReader = (input: { readonly event: MessageReceived; readonly messages: Messages; readonly signal?: AbortSignal }) => Promise<AttachmentReading>;

/** What reading is built from. */
export type AttachmentReaderOptions = {
  readonly store: AttachmentStore;
  readonly downloaderFor: (channel: string) => MediaDownloader | undefined;
  readonly transcribe?: Transcriber;
  /** Reads PDF text out of process, within `media.pdf`. */
  readonly pdf: PdfTextReader;
  readonly limits: AttachmentLimits;
  /** Whether the model reads images now (false when configured text-only or after a provider refused them). */
  readonly canSeeImages: () => boolean;
  /** Sessions already told that the model cannot see images, for `visionNoticeTtlMs`. */
  readonly visionNotices: KeyValueNamespace<boolean>;
  readonly visionNoticeTtlMs: number;
  readonly audit: (entry: AuditEntry) => void;
  /** A channel's platform download limit in bytes (its adapter's), if it has one: a larger file is refused as the platform's limit. */
  readonly platformLimitFor?: (channel: string) => number | undefined;
  /** For one info line as a PDF's extraction starts (operators and fault tests see where a turn is). */
  readonly logger?: Logger;
};

const audioKinds: ReadonlySet<MediaReference['kind']> = new Set(['voice', 'audio', 'video-note']);

/**
 * Creates the reader: each reference is downloaded through its channel into the attachment store (per-file and
 * per-message byte limits, audited), typed by its content, and turned into an image, a transcript, inlined text
 * (text files and PDF text within a character budget) or a description. Nothing is executed or rendered.
 */
export function createAttachmentReader(options: AttachmentReaderOptions): AttachmentReader {
  const { limits } = options;
  return async ({ event, messages, signal }) => {
    const notes: string[] = [];
    const images: ImageInput[] = [];
    const lines: string[] = [];
    let bytesLeft = limits.maxTurnBytes;
    let charsLeft = limits.maxTextChars;
    let heard = 0;
    let unheard = 0;
    let imagesWithoutVision = 0;

    const audit = (reference: MediaReference, outcome: string, extra: { readonly file?: string; readonly type?: FileType; readonly bytes?: number; readonly error?: string }) =>
      options.audit({
        kind: 'media-downloaded',
        traceId: event.traceId,
        sessionKey: event.sessionKey,
        userId: event.sender.id,
        channel: event.channel,
        outcome,
        arguments: { kind: reference.kind, fileName: reference.fileName, claimedType: reference.mimeType, detectedType: extra.type?.mediaType, bytes: extra.bytes, file: extra.file },
        ...(extra.error ? { error: extra.error } : {}),
      });

    for (let reference of event.media) {
      const name = safeName(reference);
      const platformLimit = options.platformLimitFor?.(event.channel);
      const limit = Math.min(limits.maxFileBytes, platformLimit ?? Number.POSITIVE_INFINITY, bytesLeft);
      const declared = reference.sizeBytes ?? 0;
      const platform = reference.overPlatformLimit === true || (platformLimit !== undefined && declared > platformLimit);
      if (platform || declared > limit) {
        const shown = describeBytes(platform ? (platformLimit ?? limits.maxFileBytes) : limit);
        lines.push(messages.attachmentTooLarge(name, shown, platform));
        notes.push(`[${describeReference(reference)}: over the ${shown} limit, not downloaded; the person was told.]`);
        audit(reference, 'refused: too large', { bytes: declared });
        if (audioKinds.has(reference.kind)) unheard += 1;
        continue;
      }
      const download = options.downloaderFor(event.channel);
      if (!download) {
        notes.push(`[${describeReference(reference)}: attached, but this channel cannot fetch files, so its content is unknown.]`);
        continue;
      }
      const reserved = await options.store.reserve();
      const result = await download(reference, { path: reserved.path, maxBytes: limit, signal });
      if (!result.ok) {
        if (result.tooLarge) lines.push(messages.attachmentTooLarge(name, describeBytes(limit), false));
        else lines.push(messages.attachmentNotDownloaded(name));
        notes.push(`[${describeReference(reference)}: could not be downloaded (${result.tooLarge ? 'too large' : result.error}); the person was told.]`);
        audit(reference, result.tooLarge ? 'refused: too large' : 'failed', { error: result.error });
        if (audioKinds.has(reference.kind)) unheard += 1;
        continue;
      }
      bytesLeft -= result.bytes;
      if (reference.fileName === undefined && result.fileName) reference = { ...reference, fileName: result.fileName };
      const type = await detectFileTypeOf(reserved.path);
      audit(reference, 'downloaded', { file: reserved.id, type, bytes: result.bytes });
      const described = `${describeReference(reference)}, ${type.mediaType}, ${describeBytes(result.bytes)}`;

      if (type.kind === 'image') {
        if (result.bytes > limits.maxImageBytes) notes.push(`[${described}: an image too large to show (over ${describeBytes(limits.maxImageBytes)}).]`);
        else if (options.canSeeImages()) images.push({ mediaType: type.mediaType, file: reserved.id, ...(reference.fileName ? { name } : {}) });
        else {
          imagesWithoutVision += 1;
          notes.push(`[${described}: an image; this model cannot see images, so its content is unknown. The person was told.]`);
        }
        continue;
      }
      if (audioKinds.has(reference.kind) || type.kind === 'audio') {
        if (!options.transcribe) {
          unheard += 1;
          lines.push(messages.voiceNotTranscribed);
          notes.push(`[${described}: spoken audio that could not be transcribed (no transcription is configured); the person was told.]`);
          continue;
        }
        const transcript = await options.transcribe({ path: reserved.path, fileName: reference.fileName ?? `${reference.kind}.${extensionOf(type)}`, mediaType: type.mediaType, signal });
        if (!transcript.ok) {
          unheard += 1;
          lines.push(messages.transcriptionFailed);
          notes.push(`[${described}: spoken audio; transcription failed (${transcript.error}); the person was told.]`);
          continue;
        }
        heard += 1;
        const spoken = cut(transcript.text, charsLeft);
        charsLeft -= spoken.text.length;
        notes.push(`[${describeReference(reference)}: the person said this aloud; transcript follows.]\n${spoken.text}${spoken.note}`);
        continue;
      }
      if (type.kind === 'pdf') {
        options.logger?.info({ eventId: event.id, file: reserved.id, bytes: result.bytes }, 'pdf extraction started');
        const pdf = await options.pdf.extract({ path: reserved.path, maxChars: charsLeft, signal });
        if (!pdf.ok) {
          if (pdf.reason !== 'unreadable' && pdf.reason !== 'cancelled') lines.push(messages.pdfNotRead(name, pdf.reason, pdfLimitOf(pdf.reason, options.pdf.limits)));
          const told = pdf.reason === 'unreadable' || pdf.reason === 'cancelled' ? '' : '; the person was told';
          notes.push(`[${described}: the PDF could not be read: ${pdf.error}${told}.]`);
          audit(reference, `pdf not read: ${pdf.reason}`, { file: reserved.id, type, error: pdf.error });
        } else if (pdf.text === '') notes.push(`[${described}: a PDF of ${pdf.pages} page(s) with no text layer (perhaps scanned); its content is unknown.]`);
        else {
          const text = cut(pdf.text, charsLeft);
          charsLeft -= text.text.length;
          const unread = pdf.pagesRead < pdf.pages ? `\n[cut here: the budget for file text ran out on page ${pdf.pagesRead} of ${pdf.pages}; later pages were not read.]` : '';
          notes.push(`[${described}: a PDF of ${pdf.pages} page(s); its text follows.]\n${text.text}${unread || text.note}`);
        }
        continue;
      }
      if (type.kind === 'text' && charsLeft > 0) {
        const prefix = await readTextPrefix(reserved.path, charsLeft);
        charsLeft -= prefix.text.length;
        const note = prefix.isCut ? `\n[cut here: the file is longer than the ${limits.maxTextChars}-character budget for file text.]` : '';
        notes.push(`[${described}: a text file; its content follows between the markers.]\n<<<file\n${prefix.text}\nfile>>>${note}`);
        continue;
      }
      notes.push(`[${described}: its content is not read.]`);
    }

    if (imagesWithoutVision > 0 && (await options.visionNotices.get(event.sessionKey)) !== true) {
      lines.push(messages.imagesNotSeen);
      await options.visionNotices.set(event.sessionKey, true, options.visionNoticeTtlMs);
    }
    const onlyUnheardVoice = unheard > 0 && heard === 0 && event.text === '' && event.media.length === unheard;
    return { text: notes.length === 0 ? '' : `\n\n${notes.join('\n\n')}`, images, lines: [...new Set(lines)], onlyUnheardVoice };
  };
}

function cut(text: string, maxChars: number): { readonly text: string; readonly note: string } {
  if (text.length <= maxChars) return { text, note: '' };
  return { text: text.slice(0, Math.max(0, maxChars)), note: `\n[cut here: ${text.length - Math.max(0, maxChars)} more characters not included (the budget for file text).]` };
}

function pdfLimitOf(reason: 'too-large' | 'timeout' | 'too-many-pages' | 'crashed', limits: PdfTextReader['limits']): string {
  if (reason === 'too-large') return `${limits.maxMemoryMb} MB`;
  if (reason === 'timeout') return `${limits.timeoutSeconds} s`;
  if (reason === 'too-many-pages') return String(limits.maxPages);
  return '';
}

function extensionOf(type: FileType): string {
  return type.mediaType.split('/')[1]?.replace('mpeg', 'mp3') ?? 'bin';
}
