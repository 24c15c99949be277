// What a caller of @atelier/egress gets back: a refusal, a non-2xx download, a response, a request's options.
export type EgressRefusedReason = 'scheme' | 'address' | 'redirects' | 'too_large' | 'timeout' | 'unreachable';

/**
 * A request not made or not finished. The message is safe to show whoever named the URL: it names the
 * URL's host and what was refused, never resolved addresses or local detail; `detail` (and `cause`) are for logs.
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
