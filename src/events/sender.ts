/** The person (or system) who sent an inbound event, as the channel identified them. */
export type Sender = {
  /** Platform user id (Telegram numeric id as text, WeChat contact id, webhook senderId). */
  readonly id: string;
  /** A readable name for cards and logs: `@username` or the display name. */
  readonly displayName: string;
  readonly username?: string;
};
