import type { LookupAddress, LookupOptions } from 'node:dns';
import type { RequestInit, Response } from 'undici';
import type { ResolvedAddress } from './network-policy.js';

/** A response and the connection pool behind it; destroy the pool once the body is read or cancelled. */
export type PinnedResponse = { readonly response: Response; close(): Promise<void> };

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Fetches a URL over a connection to the address the network policy checked, never to one a second
 * DNS resolution returns (DNS rebinding). TLS still verifies the certificate for the URL's host name.
 * Without a pinned address (IP literals, hosts the operator let through) it connects normally.
 */
export async function fetchPinned(request: { readonly url: string; readonly init: RequestInit; readonly pinnedAddress: ResolvedAddress | undefined }): Promise<PinnedResponse> {
  const { url, init, pinnedAddress } = request;
  // Loaded with the first fetch: an agent whose tools never fetch never loads undici.
  const { Agent, fetch: undiciFetch } = await import('undici');
  const agent = new Agent({
    connect: pinnedAddress === undefined ? {} : { lookup: (_hostname: string, options: LookupOptions, callback: LookupCallback) => answerLookup(pinnedAddress, options, callback) },
  });
  try {
    const response = await undiciFetch(url, { ...init, dispatcher: agent });
    return { response, close: () => agent.destroy() };
  } catch (error) {
    await agent.destroy().catch(() => undefined);
    throw error;
  }
}

function answerLookup(pinned: ResolvedAddress, options: LookupOptions, callback: LookupCallback): void {
  // net.connect asks for every address when it may try both families (autoSelectFamily): give it the one.
  if (options.all === true) callback(null, [{ address: pinned.address, family: pinned.family }]);
  else callback(null, pinned.address, pinned.family);
}
