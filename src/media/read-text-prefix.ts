import { open } from 'node:fs/promises';
import { trimPartialCharacter } from './detect-file-type.js';

/** Reads at most `maxChars` characters of a UTF-8 file from its start, and whether the file holds more. */
export async function readTextPrefix(path: string, maxChars: number): Promise<{ readonly text: string; readonly isCut: boolean }> {
  // A character is at most 4 bytes: this many bytes always hold maxChars characters when the file has them.
  const maxBytes = maxChars * 4;
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes + 1, 0);
    const text = new TextDecoder('utf-8').decode(trimPartialCharacter(buffer.subarray(0, Math.min(bytesRead, maxBytes))));
    if (text.length > maxChars) return { text: text.slice(0, maxChars), isCut: true };
    return { text, isCut: bytesRead > maxBytes };
  } finally {
    await handle.close();
  }
}
