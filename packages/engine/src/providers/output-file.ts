import { PermanentProviderError } from './types.js';

/**
 * Files a provider made (an image, a clip) are fetched from the URL it answered with. Every adapter reads
 * them through here, so each refuses the same URLs and holds at most the same bound in memory.
 */

/** The URL of a provider's output file, resolved against `base` when relative; only http and https are fetched. */
export function outputFileUrl(what: string, raw: string, base?: string): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new PermanentProviderError(`${what} has a URL that is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new PermanentProviderError(`${what} has a ${url.protocol} URL; only http and https are fetched`);
  return url;
}

/**
 * The body of an output file, at most `maxBytes`: a larger declared length is refused before reading, and a
 * body that runs past the bound is cut off there rather than held whole. Refusals are permanent: the same
 * file is as large next time.
 */
export async function readOutputFile(response: Response, maxBytes: number, what: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new PermanentProviderError(`${what} is ${declared} bytes, over the ${maxBytes} accepted`);
  }
  const reader = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const read = await reader.read();
    if (read.done) break;
    size += read.value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw new PermanentProviderError(`${what} is over the ${maxBytes} bytes accepted`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks, size);
}
