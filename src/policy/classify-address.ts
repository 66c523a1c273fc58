import { isIPv4, isIPv6 } from 'node:net';

/** What kind of network an IP address belongs to; only `public` may be reached in public-only mode. */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'carrier-grade-nat'
  | 'multicast'
  | 'reserved'
  | 'invalid';

/** Classifies an IPv4 or IPv6 address (IPv6 without brackets; a zone id is ignored). */
export function classifyAddress(address: string): AddressKind {
  if (isIPv4(address)) return classifyIpv4(parseIpv4(address));
  const bare = address.replace(/%.*$/, '');
  if (isIPv6(bare)) return classifyIpv6(parseIpv6(bare));
  return 'invalid';
}

function parseIpv4(address: string): number[] {
  return address.split('.').map((part) => Number.parseInt(part, 10));
}

/** Expands an IPv6 address (valid per `isIPv6`) into its 16 bytes. */
function parseIpv6(address: string): number[] {
  let text = address.toLowerCase();
  // An embedded dotted quad (::ffff:10.0.0.1) becomes two hex groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = parseIpv4(dotted[1]);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups];
  const bytes: number[] = [];
  for (const group of groups) {
    const value = Number.parseInt(group, 16);
    bytes.push((value >> 8) & 0xff, value & 0xff);
  }
  return bytes;
}

function classifyIpv4(bytes: readonly number[]): AddressKind {
  const [a = 0, b = 0, c = 0] = bytes;
  if (a === 0) return 'unspecified'; // 0.0.0.0/8: "this network", reaches the local host on Linux
  if (a === 127) return 'loopback';
  if (a === 10) return 'private';
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'carrier-grade-nat';
  if (a === 169 && b === 254) return 'link-local'; // includes the cloud metadata service 169.254.169.254
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return 'reserved';
  if (a === 198 && (b === 18 || b === 19)) return 'reserved';
  if (a === 198 && b === 51 && c === 100) return 'reserved';
  if (a === 203 && b === 0 && c === 113) return 'reserved';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  return 'public';
}

function classifyIpv6(bytes: readonly number[]): AddressKind {
  const at = (index: number): number => bytes[index] ?? 0;
  const isZero = (from: number, to: number): boolean => bytes.slice(from, to).every((byte) => byte === 0);
  const embeddedIpv4 = (from: number): AddressKind => classifyIpv4(bytes.slice(from, from + 4));

  if (isZero(0, 16)) return 'unspecified';
  if (isZero(0, 15) && at(15) === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d) and IPv4-compatible (::a.b.c.d).
  if (isZero(0, 10) && at(10) === 0xff && at(11) === 0xff) return embeddedIpv4(12);
  if (isZero(0, 8) && at(8) === 0xff && at(9) === 0xff && isZero(10, 12)) return embeddedIpv4(12);
  if (isZero(0, 12)) return embeddedIpv4(12);
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach the IPv4 address they embed.
  if (at(0) === 0x00 && at(1) === 0x64 && at(2) === 0xff && at(3) === 0x9b && isZero(4, 12)) return embeddedIpv4(12);
  if (at(0) === 0x00 && at(1) === 0x64 && at(2) === 0xff && at(3) === 0x9b && at(4) === 0 && at(5) === 1) return 'private';
  if (at(0) === 0x20 && at(1) === 0x02) return embeddedIpv4(2);
  if ((at(0) & 0xfe) === 0xfc) return 'private'; // fc00::/7 unique local
  if (at(0) === 0xfe && (at(1) & 0xc0) === 0x80) return 'link-local'; // fe80::/10
  if (at(0) === 0xfe && (at(1) & 0xc0) === 0xc0) return 'private'; // fec0::/10, deprecated site-local
  if (at(0) === 0xff) return 'multicast';
  if (at(0) === 0x20 && at(1) === 0x01 && at(2) === 0x0d && at(3) === 0xb8) return 'reserved'; // documentation
  if (at(0) === 0x01 && isZero(1, 8)) return 'reserved'; // 100::/64 discard
  return 'public';
}
