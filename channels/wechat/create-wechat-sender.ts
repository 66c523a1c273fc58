import { describeError } from '../../src/errors/echo-error.js';
import type { Delivery } from '../../src/events/outbound-event.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { SendPacer } from './create-send-pacer.js';

/** The one thing the sender needs from the logged-in bot. */
export type WechatSendPort = {
  isLoggedIn(): boolean;
  /** Sends one text to a contact or room; resolves to the platform message id when the puppet reports one. */
  sendText(conversationId: string, text: string): Promise<string | undefined>;
  /** Sends one file from disk (the puppet uploads it); resolves to the platform message id when reported. */
  sendFile(conversationId: string, path: string, fileName: string): Promise<string | undefined>;
};

/** Sends rendered texts to one conversation, paced, and says honestly whether they arrived. */
export type WechatSender = {
  deliver(conversationId: string, texts: readonly string[]): Promise<Delivery>;
  /** Sends one file, paced like texts. */
  deliverFile(conversationId: string, path: string, fileName: string): Promise<Delivery>;
};

// Network trouble may pass; anything else (risk control, a refused send) is not retried blindly.
const transientPattern = /timeout|timed out|ETIMEDOUT|ECONNRESET|ECONNREFUSED|EAI_AGAIN|ENETUNREACH|socket hang up|network/i;

/** Creates the sender over a port that may be missing (before start) or logged out. */
export function createWechatSender(options: { readonly port: () => WechatSendPort | undefined; readonly pacer: SendPacer; readonly logger: Logger }): WechatSender {
  async function sendOne(send: (port: WechatSendPort) => Promise<string | undefined>): Promise<Delivery> {
    const port = options.port();
    // Checked after the pacing wait, right before the send: the login may have ended meanwhile.
    if (!port?.isLoggedIn()) return { ok: false, error: 'WeChat is not logged in.', retryable: true };
    try {
      const messageId = await send(port);
      return { ok: true, messageId };
    } catch (error) {
      const detail = describeError(error);
      return { ok: false, error: `WeChat did not take the message: ${detail}`, retryable: transientPattern.test(detail) };
    }
  }

  return {
    async deliver(conversationId, texts) {
      const messageIds: string[] = [];
      for (const [index, text] of texts.entries()) {
        const sent = await options.pacer.run(conversationId, () => sendOne((port) => port.sendText(conversationId, text)));
        if (!sent.ok) {
          // After a part went out, a retry would repeat it: a partial send is reported as failed, not retryable.
          const failure: Delivery = index === 0 ? sent : { ok: false, error: `Sent ${index} of ${texts.length} parts, then: ${sent.error}`, retryable: false };
          options.logger.warn({ conversationId, part: index + 1, parts: texts.length, error: failure.error, retryable: failure.retryable }, 'WeChat message not delivered');
          return failure;
        }
        if (sent.messageId !== undefined) messageIds.push(sent.messageId);
      }
      return { ok: true, messageId: messageIds[0], messageIds };
    },
    async deliverFile(conversationId, path, fileName) {
      const sent = await options.pacer.run(conversationId, () => sendOne((port) => port.sendFile(conversationId, path, fileName)));
      if (!sent.ok) options.logger.warn({ conversationId, error: sent.error }, 'WeChat file not delivered');
      return sent;
    },
  };
}
