import type { ChatMessage, ImageInput } from '../model/chat-message.js';
import type { ModelPort, ModelRequest } from '../model/model-port.js';
import type { AttachmentStore } from './attachment-store.js';

/** Whether the model reads images: configured, and learned when a provider refuses them. */
export type VisionState = {
  canSeeImages(): boolean;
  /** The provider refused image input: from now on images become text notes. */
  markRefused(): void;
};

/** A vision state starting from the configured `vision` flag. */
export function createVisionState(configured: boolean): VisionState {
  let canSee = configured;
  return {
    canSeeImages: () => canSee,
    markRefused: () => {
      canSee = false;
    },
  };
}

/** How many of the newest user messages with images have them sent again; older ones are named in text. */
const imageMessagesSent = 2;

const refusalPattern = /image|vision|multimodal|image_url|content type|unsupported content/i;

/**
 * Wraps a model so image inputs reach it as bytes: the history keeps only the attachment id, and the bytes are
 * read from the attachment store for each request (a purged file is named in text). A text-only model gets text
 * notes instead; a provider that refuses images once is asked again without them and treated as text-only after.
 */
export function createImageInputModel(inner: ModelPort, options: { readonly store: AttachmentStore; readonly vision: VisionState }): ModelPort {
  return {
    name: inner.name,
    async complete(request) {
      if (!request.messages.some(hasImages)) return inner.complete(request);
      if (!options.vision.canSeeImages()) return inner.complete(withoutImages(request));
      const result = await inner.complete({ ...request, messages: await loadImages(request.messages, options.store) });
      if (!result.ok && result.failure.kind === 'bad-request' && refusalPattern.test(result.failure.message)) {
        options.vision.markRefused();
        return inner.complete(withoutImages(request));
      }
      return result;
    },
  };
}

function hasImages(message: ChatMessage): boolean {
  return message.role === 'user' && (message.images?.length ?? 0) > 0;
}

async function loadImages(messages: readonly ChatMessage[], store: AttachmentStore): Promise<ChatMessage[]> {
  const withImages = messages.flatMap((message, index) => (hasImages(message) ? [index] : []));
  const sent = new Set(withImages.slice(-imageMessagesSent));
  return Promise.all(
    messages.map(async (message, index) => {
      if (message.role !== 'user' || !message.images?.length) return message;
      const images = await Promise.all(
        message.images.map(async (image): Promise<ImageInput> => {
          const bytes = sent.has(index) ? await store.read(image.file) : undefined;
          return bytes ? { ...image, data: bytes.toString('base64') } : { ...image, data: undefined };
        }),
      );
      return { ...message, images };
    }),
  );
}

function withoutImages(request: ModelRequest): ModelRequest {
  return {
    ...request,
    messages: request.messages.map((message) => {
      if (message.role !== 'user' || !message.images?.length) return message;
      const notes = message.images.map((image) => `[An image${image.name ? ` (${image.name})` : ''} was sent; this model cannot see images, so its content is unknown.]`);
      return { role: 'user', content: [message.content, ...notes].filter((part) => part !== '').join('\n') };
    }),
  };
}
