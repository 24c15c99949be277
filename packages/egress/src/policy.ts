import { type AddressBlock, blockContains, forbiddenAddressKind, parseBlock } from './addresses.js';

/**
 * The one way out: every request to a URL a caller named (film-cut clips, font capture, webhooks) goes
 * through here. Only http and https; the name is resolved and every address it resolves to is checked
 * inside the socket's own `lookup`, so the address connected to is the address checked (a name that
 * answers public once and private the next time gains nothing). Loopback, private, link-local (the cloud
 * metadata address), CGNAT, multicast and reserved ranges, and the IPv6 forms carrying them, are refused
 * unless the policy allows private addresses or names the host or its block. Redirects are followed by
 * hand, each hop checked again; size and total time are capped.
 */
export interface EgressPolicy {
  /** Reach loopback, private and reserved addresses too (development only). */
  allowPrivate: boolean;
  /** Hostnames (exact, or `*.example.com` for its subdomains), IP addresses or CIDR blocks always allowed. */
  allowHosts: string[];
  maxRedirects: number;
  /** For the whole exchange: every hop, headers and body. */
  timeoutMs: number;
  maxBytes: number;
}

export const DEFAULT_EGRESS_POLICY: Readonly<EgressPolicy> = Object.freeze({
  allowPrivate: false,
  allowHosts: [],
  maxRedirects: 3,
  timeoutMs: 15_000,
  maxBytes: 200 * 1024 * 1024,
});

/** The addresses of this machine: what `allowHosts` names to let a dev stack fetch from itself. */
export const LOOPBACK_HOSTS: readonly string[] = Object.freeze(['127.0.0.0/8', '::1']);

const boolean = (value: string, name: string): boolean => {
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw new Error(`${name} must be true or false (got "${value}")`);
};

const HOSTNAME = /^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

/** Checks one allowHosts entry; throws naming it when it is neither a hostname nor an address or block. */
export function checkAllowEntry(entry: string): string {
  const e = entry.trim().toLowerCase();
  if (parseBlock(e) || HOSTNAME.test(e)) return e;
  throw new Error(`egress allow entry "${entry}" is not a hostname, IP address or CIDR block`);
}

/**
 * The policy from the environment over `defaults` (over DEFAULT_EGRESS_POLICY): ATELIER_EGRESS_ALLOW_PRIVATE
 * (true|false) replaces allowPrivate; ATELIER_EGRESS_ALLOW (a comma list of hosts and CIDRs) adds to allowHosts.
 */
export function egressPolicyFromEnv(env: NodeJS.ProcessEnv = process.env, defaults: Partial<EgressPolicy> = {}): EgressPolicy {
  const base = { ...DEFAULT_EGRESS_POLICY, ...defaults };
  const privateSetting = env.ATELIER_EGRESS_ALLOW_PRIVATE?.trim();
  const extra = (env.ATELIER_EGRESS_ALLOW ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const allowHosts = [...new Set([...base.allowHosts, ...extra].map(checkAllowEntry))];
  return {
    allowPrivate: privateSetting ? boolean(privateSetting, 'ATELIER_EGRESS_ALLOW_PRIVATE') : base.allowPrivate,
    allowHosts,
    maxRedirects: base.maxRedirects,
    timeoutMs: base.timeoutMs,
    maxBytes: base.maxBytes,
  };
}

export const bare = (hostname: string) => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);

/** allowHosts split once per request: names (exact or *.suffix) and address blocks. */
export interface CompiledPolicy {
  policy: EgressPolicy;
  names: string[];
  suffixes: string[];
  blocks: AddressBlock[];
}

export function compile(policy: EgressPolicy): CompiledPolicy {
  const names: string[] = [];
  const suffixes: string[] = [];
  const blocks: AddressBlock[] = [];
  for (const raw of policy.allowHosts) {
    const entry = bare(raw.trim().toLowerCase()).replace(/\.$/, '');
    const block = parseBlock(entry);
    if (block) blocks.push(block);
    else if (entry.startsWith('*.')) suffixes.push(entry.slice(1));
    else if (entry) names.push(entry);
  }
  return { policy, names, suffixes, blocks };
}

function hostAllowed(c: CompiledPolicy, hostname: string): boolean {
  const host = bare(hostname).toLowerCase().replace(/\.$/, '');
  return c.names.includes(host) || c.suffixes.some((s) => host.endsWith(s));
}

/** undefined when the address may be connected to; otherwise what kind of address it is. */
export function refusedKind(c: CompiledPolicy, hostname: string, address: string): string | undefined {
  if (c.policy.allowPrivate || hostAllowed(c, hostname)) return undefined;
  if (c.blocks.some((b) => blockContains(b, address))) return undefined;
  return forbiddenAddressKind(address);
}
