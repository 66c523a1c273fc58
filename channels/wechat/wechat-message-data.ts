/** What a WeChat message is to us, read out of the SDK's Message: plain data, so translation and access checks stay pure. */
export type WechatMessageData = {
  readonly messageId: string;
  /** `media`: images, voice, video, files, stickers (not read yet); `other`: system notes, recalls, transfers. */
  readonly kind: 'text' | 'media' | 'other';
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
