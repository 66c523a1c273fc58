import { open } from 'node:fs/promises';

/** What a file is, decided from its first bytes (never from its name or the sender's claim). */
export type FileType = {
  readonly kind: 'image' | 'audio' | 'video' | 'pdf' | 'text' | 'binary';
  readonly mediaType: string;
};

/** How many leading bytes the detection reads. */
export const fileTypeHeadBytes = 4096;

const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0) => bytes.every((byte, index) => head[at + index] === byte);
const ascii = (head: Uint8Array, from: number, to: number) => String.fromCharCode(...head.subarray(from, to));

/** The type of a file from its leading bytes: images, audio and video containers, PDF, UTF-8 text, else binary. Pure. */
export function detectFileType(head: Uint8Array): FileType {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { kind: 'image', mediaType: 'image/jpeg' };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'image', mediaType: 'image/png' };
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return { kind: 'image', mediaType: 'image/gif' };
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return { kind: 'image', mediaType: 'image/webp' };
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return { kind: 'audio', mediaType: 'audio/wav' };
  if (ascii(head, 0, 5) === '%PDF-') return { kind: 'pdf', mediaType: 'application/pdf' };
  if (ascii(head, 0, 4) === 'OggS') return { kind: 'audio', mediaType: 'audio/ogg' };
  if (ascii(head, 0, 4) === 'fLaC') return { kind: 'audio', mediaType: 'audio/flac' };
  if (ascii(head, 0, 3) === 'ID3' || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0 && ((head[1] ?? 0) & 0x06) !== 0)) return { kind: 'audio', mediaType: 'audio/mpeg' };
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    return brand.startsWith('M4A') ? { kind: 'audio', mediaType: 'audio/mp4' } : { kind: 'video', mediaType: 'video/mp4' };
  }
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return { kind: 'video', mediaType: 'video/webm' };
  if (isText(head)) return { kind: 'text', mediaType: 'text/plain' };
  return { kind: 'binary', mediaType: 'application/octet-stream' };
}

/** Reads a file's leading bytes and detects its type. */
export async function detectFileTypeOf(path: string): Promise<FileType> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(fileTypeHeadBytes);
    const { bytesRead } = await handle.read(head, 0, fileTypeHeadBytes, 0);
    return detectFileType(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

// Text: valid UTF-8 (a sequence cut at the end of the sample is fine) with no NUL and few control characters.
function isText(head: Uint8Array): boolean {
  if (head.length === 0) return false;
  let controls = 0;
  for (const byte of head) {
    if (byte === 0) return false;
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) controls += 1;
  }
  if (controls > head.length / 100) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(trimPartialCharacter(head));
    return true;
  } catch {
    return false;
  }
}

/** The bytes without a UTF-8 sequence cut off at the end. Pure. */
export function trimPartialCharacter(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  // Walk back over at most three continuation bytes to the lead byte of the last sequence.
  for (let back = 1; back <= 4 && end - back >= 0; back += 1) {
    const byte = bytes[end - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (length > back) end -= back;
    break;
  }
  return bytes.subarray(0, end);
}
