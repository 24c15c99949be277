/**
 * The gateway's public origin as configured (ATELIER_PUBLIC_URL): an http(s) URL of scheme, host and
 * optional port and path prefix, kept without its trailing slash so paths append to it. Refused at start
 * when it is anything else, rather than making broken file URLs later.
 */
export function publicOrigin(configured: string): string {
  return httpBaseUrl('ATELIER_PUBLIC_URL', configured, 'https://api.example.com');
}

/**
 * A setting that names an http(s) base URL (scheme, host, optional port and path), without its trailing
 * slash so paths append to it; anything else (credentials, a query, a fragment) is refused naming `setting`.
 */
export function httpBaseUrl(setting: string, configured: string, example: string): string {
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    throw new Error(`${setting} must be an http(s) URL such as ${example} (got "${configured}")`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash)
    throw new Error(`${setting} must be an http(s) URL with no credentials, query or fragment (got "${configured}")`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
