/** What one kill cost: how many messages sent before it were unanswered then, and how long until the last of them was answered. */
export type Recovery = { readonly pending: number; readonly recoverySeconds: number };

/** What `measureRecovery` looks at. */
export type RecoveryOptions = {
  /** When the instance was killed, ms since the epoch. */
  readonly killedAt: number;
  /** When each message was sent, by its text. */
  readonly sentAt: ReadonlyMap<string, number>;
  /** When the answer to a message (by its text) was first seen, or undefined while it has none. */
  readonly answeredAt: (text: string) => number | undefined;
};

/** From a kill to the moment every message sent before it had its answer (0 when none was waiting; Infinity while one still waits). */
export function measureRecovery(options: RecoveryOptions): Recovery {
  const { killedAt } = options;
  const answered = (text: string) => options.answeredAt(text) ?? Number.POSITIVE_INFINITY;
  const pending = [...options.sentAt].filter(([text, sent]) => sent < killedAt && answered(text) > killedAt).map(([text]) => text);
  const recoveredAt = Math.max(killedAt, ...pending.map(answered));
  return { pending: pending.length, recoverySeconds: (recoveredAt - killedAt) / 1000 };
}
