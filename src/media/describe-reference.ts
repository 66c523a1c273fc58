import type { MediaReference } from '../events/inbound-event.js';

const kindNames: Readonly<Record<MediaReference['kind'], string>> = {
  photo: 'Photo',
  document: 'File',
  voice: 'Voice message',
  audio: 'Audio',
  video: 'Video',
  'video-note': 'Video note',
  sticker: 'Sticker',
  other: 'Attachment',
};

/** A file name as the sender gave it, made safe to quote: no line breaks or brackets, at most 100 characters. Pure. */
export function safeName(reference: MediaReference): string {
  const cleaned = (reference.fileName ?? '').replace(/[\r\n\t[\]<>"]/g, ' ').trim().slice(0, 100);
  return cleaned === '' ? kindNames[reference.kind].toLowerCase() : cleaned;
}

/** `Voice message`, `File "report.pdf"`: what the model is told a reference is. Pure. */
export function describeReference(reference: MediaReference): string {
  return reference.fileName ? `${kindNames[reference.kind]} "${safeName(reference)}"` : kindNames[reference.kind];
}

/** Bytes for people: `512 B`, `12.3 kB`, `20 MB` (powers of 1024, the unit platforms use for their limits). Pure. */
export function describeBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${trim(bytes / 1024)} kB`;
  return `${trim(bytes / (1024 * 1024))} MB`;
}

function trim(value: number): string {
  return value >= 100 || Number.isInteger(value) ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
}
