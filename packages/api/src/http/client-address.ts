import { isIPv6 } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from '../services.js';

/**
 * How many proxies the deployment puts in front of its gateways (ATELIER_TRUSTED_PROXY_HOPS, 0 when
 * absent): with none, X-Forwarded-For is whatever the client wrote and is ignored.
 */
export function trustedProxyHops(env: NodeJS.ProcessEnv = process.env, given?: number): number {
  if (given !== undefined) return given;
  const raw = env.ATELIER_TRUSTED_PROXY_HOPS;
  if (raw === undefined || raw === '') return 0;
  const hops = Number(raw);
  if (!Number.isInteger(hops) || hops < 0) throw new Error(`ATELIER_TRUSTED_PROXY_HOPS must be a whole number ≥ 0, not "${raw}"`);
  return hops;
}

/**
 * The address of the client as the outermost trusted proxy saw it: the socket's peer when no proxy is
 * trusted; else the entry of X-Forwarded-For that the outermost of `hops` proxies appended (each appends
 * the address it was reached from, so entries left of it are the client's own say). An IPv6 client is
 * known by its /64, the block one host is usually given. `unknown` when the app runs without a socket.
 */
export function clientAddress(c: Context, hops: number): string {
  if (hops > 0) {
    const forwarded = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const seen = forwarded[Math.max(0, forwarded.length - hops)];
    if (seen) return addressKey(seen);
  }
  try {
    return addressKey(getConnInfo(c).remote.address ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/** The address of a request's client, behind as many proxies as the gateway trusts (ATELIER_TRUSTED_PROXY_HOPS). */
export const requestAddress = (c: Context<AppEnv>): string => clientAddress(c, c.get('services').trustedProxyHops ?? 0);

/** One key per client: IPv4 as it is (also when mapped into IPv6), IPv6 cut to its /64. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
