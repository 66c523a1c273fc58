import { z } from 'zod';
import type { ActionClicked } from '../events/inbound-event.js';
import type { FactScope, MemoryFact } from '../memory/memory-fact.js';
import { forgetFacts, isChatApprover, type MemoryCommandDependencies } from './memory-commands.js';

/** A Forget press as the core accepts it: a fact id of the shape the store gives, and the one choice. */
const forgetPressSchema = z.object({ actionId: z.string().regex(/^[A-Za-z0-9_-]{1,48}$/), choice: z.literal('forget') });

/** What a Forget press did: forgot the fact (with its statement), refused (not the presser's), or found nothing. */
export type ForgetPressOutcome = { readonly kind: 'forgotten'; readonly statement: string } | { readonly kind: 'not-yours' } | { readonly kind: 'gone' };

/**
 * A fact's Forget button (under `/memory`): the fact is looked for only in the scopes the presser may reach from this
 * chat — their own person scope, this chat's, this group's — so a button can never name someone else's private fact.
 * A group fact is forgotten only by its author or an approver of the chat. Forgotten at once for retrieval, audited.
 */
export async function forgetPressed(deps: Omit<MemoryCommandDependencies, 'messages'>, event: ActionClicked): Promise<ForgetPressOutcome> {
  const press = forgetPressSchema.safeParse({ actionId: event.actionId, choice: event.choice });
  if (!press.success) return { kind: 'gone' };
  const scopes: readonly FactScope[] = [
    { kind: 'person', channel: event.channel, userId: event.sender.id },
    { kind: 'chat', channel: event.channel, chatId: event.chatId },
    { kind: 'group', channel: event.channel, chatId: event.chatId },
  ];
  let found: MemoryFact | undefined;
  for (const scope of scopes) {
    found = (await deps.facts.current(scope)).find((fact) => fact.id === press.data.actionId);
    if (found !== undefined) break;
  }
  if (found === undefined) return { kind: 'gone' };
  // A private chat's scope is that person's own chat; only a group's facts are shared with others.
  if (found.scope.kind === 'group' && found.source.authorId !== event.sender.id && !isChatApprover(deps.approvalRouteFor, event)) return { kind: 'not-yours' };
  await forgetFacts(deps, event, [found], { via: 'button' });
  return { kind: 'forgotten', statement: found.statement };
}
