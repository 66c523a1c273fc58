import { constants, deflateRawSync } from 'node:zlib';
import { buildPdf, textContent } from './build-pdf.js';

const mebibyte = 1024 * 1024;
const adlerBase = 65_521;

function adler32(bytes: Uint8Array): number {
  let low = 1;
  let high = 0;
  for (const byte of bytes) {
    low = (low + byte) % adlerBase;
    high = (high + low) % adlerBase;
  }
  return ((high << 16) | low) >>> 0;
}

// zlib's adler32_combine: the checksum of A then B from the checksums of A and B and the length of B.
function combineAdler32(first: number, second: number, secondLength: number): number {
  const remainder = secondLength % adlerBase;
  let low = first & 0xffff;
  let high = (remainder * low) % adlerBase;
  low += (second & 0xffff) + adlerBase - 1;
  high += (first >>> 16) + (second >>> 16) + adlerBase - remainder;
  low %= adlerBase;
  high %= adlerBase;
  return ((high << 16) | low) >>> 0;
}

/**
 * A zlib stream of `head` followed by `megabytes` MB of `pattern` repeated, built in milliseconds: each part is
 * deflated at level 9 and flushed so that it refers to nothing before it, the MB block is repeated, then come an
 * empty final block and the Adler-32 of the whole. About 1,030 to 1 (deflating a GB the slow way takes seconds).
 */
export function deflateRepeated(options: { readonly head: string; readonly pattern: string; readonly megabytes: number }): Buffer {
  if (mebibyte % options.pattern.length !== 0) throw new Error('the pattern must divide a megabyte');
  const head = Buffer.from(options.head, 'latin1');
  const block = Buffer.alloc(mebibyte, options.pattern, 'latin1');
  const flushed = (bytes: Buffer) => deflateRawSync(bytes, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const blockAdler = adler32(block);
  let checksum = adler32(head);
  for (let index = 0; index < options.megabytes; index += 1) checksum = combineAdler32(checksum, blockAdler, mebibyte);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(checksum);
  const deflatedBlock = flushed(block);
  return Buffer.concat([Buffer.from([0x78, 0xda]), flushed(head), ...Array.from({ length: options.megabytes }, () => deflatedBlock), Buffer.from([0x03, 0x00]), trailer]);
}

/**
 * A valid one-page PDF whose content stream inflates to `megabytes` MB of `[0 0 0 0 …`: an array operand that
 * never ends, which pdf.js grows element by element until V8 dies (`Fatal JavaScript invalid size error`, exit 133)
 * or runs out of heap. 256 MB from about 250 kB, 1 GB from about 1 MB.
 */
export function createInflationBombPdf(megabytes: number): Buffer {
  return buildPdf([{ bytes: deflateRepeated({ head: '[', pattern: '0 ', megabytes }), deflated: true }]);
}

/** A valid PDF of `pages` pages that all show the same short line (one shared stream): 100,000 pages in 16 MB. */
export function createManyPagesPdf(pages: number): Buffer {
  const content = textContent('page');
  return buildPdf(Array.from({ length: pages }, () => content));
}
