/** What verifying one request found: the sender proved it holds the secret (and, when it says, which delivery this is), or why not. */
export type HookVerification = { readonly ok: true; readonly deliveryId?: string } | { readonly ok: false; readonly reason: string };

/** What a verifier reads: the lower-cased headers, the raw body as received (what senders sign) and the parsed body. */
export type SignedRequest = {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly rawBody: string;
  readonly body: unknown;
};

/** A refusal with its reason. Pure. */
export function refused(reason: string): HookVerification {
  return { ok: false, reason };
}
