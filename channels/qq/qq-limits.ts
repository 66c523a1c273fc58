/** The longest text the channel puts in one message unless `channels.qq.limits.messageChars` says otherwise. */
export const qqDefaultMessageChars = 2000;
