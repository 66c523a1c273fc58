import type { ExchangeArchive } from './create-exchange-archive.js';
import { exchangeScopeOf, type MemoryExchange } from './memory-exchange.js';
import type { RecallRequest } from './recall-facts.js';

/**
 * The exchanges a turn may see: in a group, the group's own; in a private chat, the person's (of any private chat of
 * theirs, linked identities included). A group's exchanges never reach a private chat and a private chat's never a group.
 * In its own file so `/forget` does not pull the keyword index.
 */
export async function visibleExchanges(archive: ExchangeArchive, request: Pick<RecallRequest, 'channel' | 'chatId' | 'userId' | 'isGroup'>): Promise<readonly MemoryExchange[]> {
  return archive.list(exchangeScopeOf(request));
}
