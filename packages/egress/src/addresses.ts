import { isIP } from 'node:net';

/**
 * Which addresses a fetch to a caller-named URL may connect to. Addresses are compared as numbers:
 * IPv4 as 32 bits, IPv6 as 128 bits, and an IPv6 form that carries an IPv4 address (mapped ::ffff:a.b.c.d,
 * compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged by the IPv4 address it carries.
 */

type Range = { bits: bigint; prefix: number; name: string };

function parseV4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseV6(text: string): bigint | undefined {
  let body = text.toLowerCase();
  const zone = body.indexOf('%');
  if (zone >= 0) body = body.slice(0, zone);
  // A trailing dotted quad (::ffff:1.2.3.4) is two 16-bit groups written another way.
  const lastColon = body.lastIndexOf(':');
  const last = body.slice(lastColon + 1);
  if (last.includes('.')) {
    const quad = parseV4(last);
    if (quad === undefined) return undefined;
    body = `${body.slice(0, lastColon + 1)}${(quad >> 16n).toString(16)}:${(quad & 0xffffn).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const total = head.length + rest.length;
  if (halves.length === 1 && total !== 8) return undefined;
  if (halves.length === 2 && total > 7) return undefined;
  const words: bigint[] = [];
  for (const g of head) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return undefined;
    words.push(BigInt(`0x${g}`));
  }
  for (let i = 0; i < 8 - total; i++) words.push(0n);
  for (const g of rest) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return undefined;
    words.push(BigInt(`0x${g}`));
  }
  return words.reduce((acc, w) => (acc << 16n) | w, 0n);
}

/** An address as a family and a number, or undefined when the text is not an IP address. */
export function parseAddress(text: string): { family: 4 | 6; value: bigint } | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const kind = isIP(bare.split('%')[0]!);
  if (kind === 4) {
    const value = parseV4(bare);
    return value === undefined ? undefined : { family: 4, value };
  }
  if (kind === 6) {
    const value = parseV6(bare);
    return value === undefined ? undefined : { family: 6, value };
  }
  return undefined;
}

const v4 = (cidr: string, name: string): Range => {
  const [ip, prefix] = cidr.split('/');
  return { bits: parseV4(ip!)!, prefix: Number(prefix), name };
};
const v6 = (cidr: string, name: string): Range => {
  const [ip, prefix] = cidr.split('/');
  return { bits: parseV6(ip!)!, prefix: Number(prefix), name };
};

const inRange = (value: bigint, width: number, range: Range) => {
  const shift = BigInt(width - range.prefix);
  return value >> shift === range.bits >> shift;
};

/** IPv4 ranges never reached from a caller-named URL unless the policy allows it. */
const DENIED_V4: Range[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'shared (CGNAT)'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

const DENIED_V6: Range[] = [
  v6('::1/128', 'loopback'),
  v6('::/128', 'unspecified'),
  v6('100::/64', 'reserved'),
  v6('64:ff9b:1::/48', 'reserved'),
  v6('2001:db8::/32', 'documentation'),
  v6('fc00::/7', 'private'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'link-local'),
  v6('ff00::/8', 'multicast'),
];

/** IPv6 forms that carry an IPv4 address, and where it sits. */
const EMBEDDED_V4: Array<{ range: Range; shift: bigint }> = [
  { range: v6('::ffff:0:0/96', 'mapped'), shift: 0n },
  { range: v6('::/96', 'compatible'), shift: 0n },
  { range: v6('64:ff9b::/96', 'nat64'), shift: 0n },
  { range: v6('2002::/16', '6to4'), shift: 80n },
];

/** The IPv4 address an IPv6 address carries, if it is one of the forms that carry one. */
export function embeddedV4(value: bigint): bigint | undefined {
  // ::1 and :: sit inside ::/96 but are IPv6's own loopback and unspecified addresses.
  if (value === 0n || value === 1n) return undefined;
  for (const { range, shift } of EMBEDDED_V4) if (inRange(value, 128, range)) return (value >> shift) & 0xffffffffn;
  return undefined;
}

/**
 * Why an address may not be reached ('loopback', 'private', 'link-local', ...), or undefined when it is
 * a public unicast address. Text that is not an address is 'invalid'.
 */
export function forbiddenAddressKind(address: string): string | undefined {
  const parsed = parseAddress(address);
  if (!parsed) return 'invalid';
  if (parsed.family === 4) return DENIED_V4.find((r) => inRange(parsed.value, 32, r))?.name;
  const carried = embeddedV4(parsed.value);
  if (carried !== undefined) return DENIED_V4.find((r) => inRange(carried, 32, r))?.name;
  return DENIED_V6.find((r) => inRange(parsed.value, 128, r))?.name;
}

/** An allowHosts entry that names addresses: one IP, or a CIDR block. */
export interface AddressBlock {
  family: 4 | 6;
  value: bigint;
  prefix: number;
}

export function parseBlock(entry: string): AddressBlock | undefined {
  const [ip, prefixText, extra] = entry.split('/');
  if (extra !== undefined || !ip) return undefined;
  const parsed = parseAddress(ip);
  if (!parsed) return undefined;
  const width = parsed.family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? width : Number(prefixText);
  if (prefix > width) return undefined;
  return { ...parsed, prefix };
}

/** Whether `address` lies in `block`; an IPv4 block also covers the IPv6 forms carrying its addresses. */
export function blockContains(block: AddressBlock, address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  let { family, value } = parsed;
  if (family === 6 && block.family === 4) {
    const carried = embeddedV4(value);
    if (carried === undefined) return false;
    family = 4;
    value = carried;
  }
  if (family !== block.family) return false;
  const shift = BigInt((family === 4 ? 32 : 128) - block.prefix);
  return value >> shift === block.value >> shift;
}
