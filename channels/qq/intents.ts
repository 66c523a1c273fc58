/** Intent bits of the QQ gateway (event-emit.md) the channel subscribes to. */
export const qqIntents = {
  /** `C2C_MESSAGE_CREATE`, `GROUP_AT_MESSAGE_CREATE` and the friend and group membership events. */
  groupAndC2cEvent: 1 << 25,
} as const;
