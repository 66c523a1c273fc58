import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { describeError } from '../errors/echo-error.js';
import { type AddressKind, classifyAddress } from './classify-address.js';

/** `public-only`: public internet only; `allow`: any http(s) URL; `deny`: no outbound requests. */
export type NetworkMode = 'public-only' | 'allow' | 'deny';

/** One address a host name resolved to. */
export type ResolvedAddress = { readonly address: string; readonly family: number };

/** Resolves a host name to all its addresses; injectable so tests need no DNS. */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/**
 * Says whether a URL may be fetched under the network policy (checked after DNS resolution); when
 * allowed after a check of resolved addresses, the address to connect to (so a second lookup cannot change it).
 */
export type UrlCheck = { readonly ok: true; readonly pinnedAddress?: { readonly address: string; readonly family: number } } | { readonly ok: false; readonly reason: string };

/** How the URL checker decides. */
export type UrlCheckerOptions = {
  readonly mode: NetworkMode;
  /** Host names (or IP literals) let through without address checks, for operators and tests. */
  readonly allowHosts?: readonly string[];
  /** Default: `node:dns/promises` lookup with `all: true`. */
  readonly lookup?: HostLookup;
};

/** Checks one URL against the network policy; used for the first URL and every redirect. */
export type UrlChecker = (url: string) => Promise<UrlCheck>;

const defaultLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

const addressDescriptions: Record<Exclude<AddressKind, 'public'>, string> = {
  loopback: 'a loopback address (this machine)',
  private: 'a private network address',
  'link-local': 'a link-local address (where cloud metadata services live)',
  unspecified: 'an unspecified address (this machine)',
  'carrier-grade-nat': 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  invalid: 'an address that cannot be read',
};

/** Creates the URL checker tools use before every outbound request (first URL and each redirect). */
export function createUrlChecker(options: UrlCheckerOptions): UrlChecker {
  const lookup = options.lookup ?? defaultLookup;
  const allowHosts = new Set((options.allowHosts ?? []).map(normaliseHost));

  return async (text) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return refuse('That is not a valid URL.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return refuse(`Only http and https URLs may be fetched; this one uses ${url.protocol.slice(0, -1)}.`);
    }
    if (options.mode === 'deny') return refuse('The network policy does not allow outbound requests.');
    if (options.mode === 'allow') return { ok: true };

    const host = normaliseHost(url.hostname);
    if (allowHosts.has(host)) return { ok: true };
    if (host === 'localhost' || host.endsWith('.localhost')) {
      return refuse(`${host} is this machine, and only public internet addresses may be fetched.`);
    }
    if (isIP(host) !== 0) return checkAddresses(host, [host]);

    let addresses: readonly ResolvedAddress[];
    try {
      addresses = await lookup(host);
    } catch (error) {
      return refuse(`The host ${host} could not be resolved (${describeError(error)}).`);
    }
    if (addresses.length === 0) return refuse(`The host ${host} did not resolve to any address.`);
    const checked = checkAddresses(
      host,
      addresses.map((entry) => entry.address),
    );
    // The connection goes to this checked address, never to what a second resolution answers.
    const first = addresses[0];
    return checked.ok && first !== undefined ? { ok: true, pinnedAddress: { address: first.address, family: first.family } } : checked;
  };
}

// Every resolved address must be public: one private answer is enough for DNS tricks to reach it.
function checkAddresses(host: string, addresses: readonly string[]): UrlCheck {
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind === 'public') continue;
    const subject = address === host ? address : `${host} resolves to ${address}, which`;
    return refuse(`${subject} is ${addressDescriptions[kind]}, and only public internet addresses may be fetched.`);
  }
  return { ok: true };
}

function normaliseHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

function refuse(reason: string): UrlCheck {
  return { ok: false, reason };
}
