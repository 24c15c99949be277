// @atelier/egress: the policy (policy.ts), what a refusal looks like (errors.ts), and here the transport that
// enforces it: the guarded lookup, one request per hop, redirects, size and time caps.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EgressRefused, type EgressFetchInit, type EgressResponse, EgressStatusError, REFUSED_TARGET_MESSAGE } from './errors.js';
import { type CompiledPolicy, type EgressPolicy, bare, compile, refusedKind } from './policy.js';

export { forbiddenAddressKind } from './addresses.js';
export * from './errors.js';
export * from './policy.js';

const size = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
    : bytes >= 1024
      ? `${Math.round((bytes / 1024) * 10) / 10} KB`
      : `${bytes} bytes`;

function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EgressRefused('scheme', '', 'the URL is not a valid absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressRefused('scheme', url.hostname, `${url.protocol.replace(/:$/, '')} URLs are not fetched; only http and https are`);
  }
  if (!url.hostname) throw new EgressRefused('scheme', '', 'the URL names no host');
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A host the policy refuses: the caller's words are the same whatever the host was (see REFUSED_TARGET_MESSAGE). */
const refusedHost = (urlHost: string, detail: string) => new EgressRefused('address', urlHost, REFUSED_TARGET_MESSAGE, { detail });

/** The refusal of an address written in the URL (connected to as it is, no lookup), or undefined when allowed. */
function literalRefusal(c: CompiledPolicy, urlHost: string): EgressRefused | undefined {
  const literal = bare(urlHost);
  if (!isIP(literal)) return undefined;
  const kind = refusedKind(c, literal, literal);
  return kind ? refusedHost(urlHost, `${literal} is a ${kind} address`) : undefined;
}

/** The refusal of a name by the addresses it resolved to: any one not allowed refuses it. */
function resolvedRefusal(c: CompiledPolicy, urlHost: string, hostname: string, addresses: LookupAddress[]): EgressRefused | undefined {
  for (const a of addresses) {
    const kind = refusedKind(c, hostname, a.address);
    if (kind) return refusedHost(urlHost, `${hostname} resolved to ${a.address} (${kind})`);
  }
  return undefined;
}

/** The socket's lookup: resolves every address of the name and refuses the connection if any is not allowed. */
function guardedLookup(c: CompiledPolicy, urlHost: string) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as LookupAddress[];
      const refusal = resolvedRefusal(c, urlHost, hostname, list);
      if (refusal) return callback(refusal as unknown as NodeJS.ErrnoException, '');
      if (list.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      if (options.all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** One request's shared clock and cancellation: the policy's total time and the caller's signal. */
interface Budget {
  host: string;
  signal: AbortSignal;
  streams: Set<{ destroy(): void }>;
}

async function withBudget<T>(policy: EgressPolicy, signal: AbortSignal | undefined, work: (budget: Budget) => Promise<T>): Promise<T> {
  if (signal?.aborted) throw signal.reason;
  const controller = new AbortController();
  const budget: Budget = { host: '', signal: controller.signal, streams: new Set() };
  const abort = (reason: unknown) => {
    if (controller.signal.aborted) return;
    controller.abort(reason);
    for (const s of budget.streams) s.destroy();
  };
  const timer = setTimeout(() => {
    const seconds = Math.round(policy.timeoutMs / 100) / 10;
    abort(new EgressRefused('timeout', budget.host, `${budget.host} did not answer in full within ${seconds} s`));
  }, policy.timeoutMs);
  const onAbort = () => abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await work(budget);
  } catch (err) {
    if (controller.signal.aborted) throw controller.signal.reason;
    throw err;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    for (const s of budget.streams) s.destroy();
  }
}

/** A failure of the network as the caller may see it: what happened with the host, not how. */
function unreachable(host: string, err: unknown): EgressRefused {
  if (err instanceof EgressRefused) return err;
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  const message =
    // A name that does not resolve is told apart from an internal one by nothing (REFUSED_TARGET_MESSAGE).
    code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA'
      ? REFUSED_TARGET_MESSAGE
      : code === 'ECONNREFUSED'
        ? `${host} refused the connection`
        : code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('DEPTH_ZERO') || code.startsWith('SELF_SIGNED')
          ? `${host} did not present a certificate that could be verified`
          : `${host} could not be reached`;
  return new EgressRefused('unreachable', host, message, { detail: (err as Error)?.message, cause: err });
}

interface Hop {
  method: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

/** One request to `url`; resolves with the response once its headers arrive. */
function send(url: URL, hop: Hop, c: CompiledPolicy, budget: Budget): Promise<IncomingMessage> {
  const host = url.hostname;
  budget.host = host;
  const literal = bare(host);
  // An address in the URL is connected to as it is (no lookup): checked here, before any socket.
  const refusal = literalRefusal(c, host);
  if (refusal) throw refusal;
  const client = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = { 'user-agent': 'Atelier', ...hop.headers };
  if (hop.body !== undefined) headers['content-length'] = String(Buffer.byteLength(hop.body));
  return new Promise<IncomingMessage>((resolve, reject) => {
    const onAbort = () => reject(budget.signal.reason);
    budget.signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => budget.signal.removeEventListener('abort', onAbort);
    const req = client.request(
      {
        protocol: url.protocol,
        hostname: literal,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: hop.method,
        headers,
        // No pooled sockets: a socket opened under another policy is never reused for this one.
        agent: false,
        lookup: guardedLookup(c, host),
      },
      (res) => {
        settle();
        budget.streams.add(res);
        resolve(res);
      },
    );
    budget.streams.add(req);
    req.on('error', (err) => {
      settle();
      reject(unreachable(host, err));
    });
    req.end(hop.body);
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function locationOf(res: IncomingMessage, base: URL): string | undefined {
  const status = res.statusCode ?? 0;
  const location = res.headers.location;
  if (!REDIRECTS.has(status) || !location) return undefined;
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}

/** Sends and follows redirects (each hop checked like the first) up to the policy's count. */
async function exchange(
  raw: string,
  init: EgressFetchInit,
  c: CompiledPolicy,
  budget: Budget,
): Promise<{ res: IncomingMessage; url: URL; location?: string }> {
  let url = parseTarget(raw);
  let hop: Hop = { method: (init.method ?? 'GET').toUpperCase(), headers: { ...(init.headers ?? {}) }, body: init.body };
  for (let redirects = 0; ; redirects++) {
    const res = await send(url, hop, c, budget);
    const location = locationOf(res, url);
    if (!location) return { res, url };
    if (init.followRedirects === false) return { res, url, location };
    res.resume();
    if (redirects >= c.policy.maxRedirects) {
      throw new EgressRefused('redirects', url.hostname, `${url.hostname} redirected more than ${c.policy.maxRedirects} times`);
    }
    const next = parseTarget(location);
    const status = res.statusCode!;
    if (status === 303 || ((status === 301 || status === 302) && hop.method === 'POST')) {
      hop = {
        method: hop.method === 'HEAD' ? 'HEAD' : 'GET',
        headers: withoutKeys(hop.headers, ['content-type', 'content-length']),
        body: undefined,
      };
    }
    // Credentials meant for one origin do not follow a redirect to another.
    if (next.origin !== url.origin) hop = { ...hop, headers: withoutKeys(hop.headers, ['authorization', 'cookie', 'proxy-authorization']) };
    url = next;
  }
}

function withoutKeys(headers: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !keys.includes(k.toLowerCase())));
}

function tooLarge(host: string, max: number): EgressRefused {
  return new EgressRefused('too_large', host, `the response from ${host} is larger than ${size(max)}`);
}

function checkDeclaredLength(res: IncomingMessage, host: string, max: number): void {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    res.destroy();
    throw tooLarge(host, max);
  }
}

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    try {
      headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    } catch {
      // a header undici will not hold is left out
    }
  }
  return headers;
}

/** A request to a caller-named URL under `policy`; any status is returned (redirects followed unless asked not to). */
export async function egressFetch(url: string, init: EgressFetchInit, policy: EgressPolicy): Promise<EgressResponse> {
  const c = compile(policy);
  return withBudget(policy, init.signal, async (budget) => {
    const { res, url: final, location } = await exchange(url, init, c, budget);
    const host = final.hostname;
    checkDeclaredLength(res, host, policy.maxBytes);
    const chunks: Buffer[] = [];
    let seen = 0;
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        seen += chunk.length;
        if (seen > policy.maxBytes) {
          res.destroy();
          throw tooLarge(host, policy.maxBytes);
        }
        chunks.push(chunk);
      }
    } catch (err) {
      throw unreachable(host, err);
    }
    return {
      status: res.statusCode ?? 0,
      headers: headersOf(res),
      url: final.href,
      ...(location !== undefined ? { redirectedTo: location } : {}),
      body: Buffer.concat(chunks),
    };
  });
}

/**
 * Streams a caller-named URL to `file` under `policy`, counting bytes as they arrive (a missing or false
 * content-length does not get past maxBytes). A response that is not 2xx throws EgressStatusError; a
 * failed download leaves no file behind.
 */
export async function egressDownload(
  url: string,
  file: string,
  init: { signal?: AbortSignal },
  policy: EgressPolicy,
): Promise<{ bytes: number; contentType: string | null }> {
  const c = compile(policy);
  return withBudget(policy, init.signal, async (budget) => {
    const { res, url: final } = await exchange(url, { method: 'GET', ...(init.signal ? { signal: init.signal } : {}) }, c, budget);
    const host = final.hostname;
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      res.resume();
      throw new EgressStatusError(status, host);
    }
    checkDeclaredLength(res, host, policy.maxBytes);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes > policy.maxBytes) done(tooLarge(host, policy.maxBytes));
        else done(null, chunk);
      },
    });
    const out = createWriteStream(file);
    try {
      await pipeline(res, counter, out);
    } catch (err) {
      await rm(file, { force: true });
      if (budget.signal.aborted || err instanceof EgressRefused) throw budget.signal.aborted ? budget.signal.reason : err;
      // A local write failure is the caller's own problem, not the host's.
      if (out.errored) throw err;
      throw unreachable(host, err);
    }
    const type = res.headers['content-type'];
    return { bytes, contentType: typeof type === 'string' ? type : null };
  });
}

/** The longest a target's lookup holds the request that named it. */
const TARGET_LOOKUP_MS = 5_000;

/**
 * Judges a caller-named URL now by the rules a request to it would meet — http or https, and every address
 * its host resolves to — without connecting: for refusing a webhook target when it is named rather than at
 * its first send. A host that does not resolve (or not within TARGET_LOOKUP_MS) is refused with the same
 * message as an internal one. Each request is still checked at connect time: a name may resolve elsewhere later.
 */
export async function checkEgressTarget(raw: string, policy: EgressPolicy): Promise<void> {
  const url = parseTarget(raw);
  const c = compile(policy);
  const host = url.hostname;
  if (isIP(bare(host))) {
    const refusal = literalRefusal(c, host);
    if (refusal) throw refusal;
    return;
  }
  const waitMs = Math.min(policy.timeoutMs, TARGET_LOOKUP_MS);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer for ${host} within ${waitMs} ms`), { code: 'EAI_AGAIN' })), waitMs);
  });
  let addresses: LookupAddress[];
  try {
    addresses = await Promise.race([dnsLookupAll(host, { all: true }), late]);
  } catch (err) {
    throw unreachable(host, err);
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) throw unreachable(host, Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' }));
  const refusal = resolvedRefusal(c, host, host, addresses);
  if (refusal) throw refusal;
}
