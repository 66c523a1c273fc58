import type { MediaReference } from '../../src/events/inbound-event.js';

/** What a WeChat message is to us, read out of the SDK's Message: plain data, so translation and access checks stay pure. */
export type WechatMessageData = {
  readonly messageId: string;
  /** `media`: images, voice, video, files, stickers; `other`: system notes, recalls, transfers. */
  readonly kind: 'text' | 'media' | 'other';
  /** For `media`: what the file is, as a media reference kind (`video` is described, not downloaded). */
  readonly mediaKind?: MediaReference['kind'];
  /** The text, with the @mention of the bot removed in rooms. */
  readonly text: string;
  readonly talker: {
    readonly id: string;
    readonly name: string;
    /** The remark the bot's owner gave the contact (set by us, not by the contact). */
    readonly alias?: string;
  };
  readonly room?: { readonly id: string; readonly topic: string };
  /** True when the message @mentions the bot (rooms only). */
  readonly mentionsBot: boolean;
  /** True for messages the bot itself sent (the puppet reports them too). */
  readonly isSelf: boolean;
  /** ISO 8601. */
  readonly sentAt: string;
};
