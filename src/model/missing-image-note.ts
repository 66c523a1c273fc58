import type { ImageInput } from './chat-message.js';

/** The text a provider sends in place of an image whose bytes were not loaded (an older image, or its file was purged). Pure. */
export function missingImageNote(image: ImageInput): string {
  return `[An earlier image${image.name ? ` (${image.name})` : ''} is not shown again (older images are not re-sent, and kept files are purged).]`;
}
