// What a caller of @atelier/egress gets back: a refusal, a non-2xx download, a response, a request's options.
export type EgressRefusedReason = 'scheme' | 'address' | 'redirects' | 'too_large' | 'timeout' | 'unreachable';

/**
 * What the caller is told about every host the policy refuses (loopback, private, metadata, reserved, by
 * address or by name) and every host that does not resolve: the same words for all, with no host in them,
 * so that comparing answers does not tell an internal name from a missing one. Which it was, and what the
 * name resolved to, is in the refusal's `detail`, for logs.
 */
export const REFUSED_TARGET_MESSAGE = 'the host is not a public address or does not resolve; requests to it are not allowed';

/**
 * A request not made or not finished. The message is safe to show whoever named the URL: it names what was
 * refused (REFUSED_TARGET_MESSAGE for a refused or unresolvable host), never resolved addresses or local
 * detail; `detail` (and `cause`) are for logs.
 */
export class EgressRefused extends Error {
  override readonly name = 'EgressRefused';
  readonly detail: string | undefined;
  constructor(
    readonly reason: EgressRefusedReason,
    readonly host: string,
    message: string,
    options: { detail?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.detail = options.detail;
  }
}

/** egressDownload's answer to a response that is not 2xx (after redirects): the caller decides what it means. */
export class EgressStatusError extends Error {
  override readonly name = 'EgressStatusError';
  constructor(
    readonly status: number,
    readonly host: string,
  ) {
    super(`${host} answered HTTP ${status}`);
  }
}

export interface EgressResponse {
  status: number;
  headers: Headers;
  /** The URL that answered, after any redirects followed. */
  url: string;
  /** The absolute Location of a 3xx returned unfollowed (followRedirects: false). */
  redirectedTo?: string;
  body: Buffer;
}

export interface EgressFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  /** Default true; false returns a 3xx as it is, with redirectedTo from its Location. */
  followRedirects?: boolean;
}
