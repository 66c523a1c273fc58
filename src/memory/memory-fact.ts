/** Whose a fact is: one person (in one channel, until identities are linked), a group, or a private chat. */
export type FactScope =
  | { readonly kind: 'person'; readonly channel: string; readonly userId: string }
  | { readonly kind: 'group'; readonly channel: string; readonly chatId: string }
  | { readonly kind: 'chat'; readonly channel: string; readonly chatId: string };

/** How far a fact can be trusted: by who said it. */
export type FactTrust = 'approver' | 'allowed-user' | 'group-member';

/** Where a fact came from: the message a person wrote. */
export type FactSource = {
  readonly messageId?: string;
  readonly authorId: string;
  readonly authorName: string;
  readonly channel: string;
  readonly chatId: string;
  /** When the message was handled (ISO 8601). */
  readonly at: string;
};

/**
 * One remembered fact. `subject` names what it is about (normalised: a newer fact of the same subject in the same
 * scope replaces it for retrieval); a replaced fact keeps `replacedBy` and stays in the scope's history.
 */
export type MemoryFact = {
  readonly id: string;
  readonly scope: FactScope;
  readonly subject: string;
  readonly statement: string;
  readonly source: FactSource;
  readonly trust: FactTrust;
  readonly replacedBy?: string;
  readonly replacedAt?: string;
};

/** The store key of a scope: `person|telegram|42`, `group|telegram|-100`, `chat|wechat|wxid_1`. Pure. */
export function factScopeKey(scope: FactScope): string {
  switch (scope.kind) {
    case 'person':
      return `person|${scope.channel}|${scope.userId}`;
    case 'group':
    case 'chat':
      return `${scope.kind}|${scope.channel}|${scope.chatId}`;
    default: {
      const unreachable: never = scope;
      return unreachable;
    }
  }
}

/** A subject as compared for contradictions: lower case, single spaces, no surrounding punctuation. Pure. */
export function normaliseSubject(subject: string): string {
  return subject
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '');
}
