import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface Revalidation {
  publication: string;
  action: string;
  path: string;
  webhookId: string;
}

export interface ConsumerOptions {
  env?: Record<string, string | undefined>;
  /** The consumer's clock, in seconds. */
  now?: () => number;
  revalidate?: (path: string) => void;
  log?: ((line: string) => void) | null;
}

export function envName(prefix: string, slug: string): string;
export function signatureMatches(secret: string, id: string, timestamp: string, rawBody: Buffer, signatureHeader: string): boolean;
export function createRevalidateConsumer(options?: ConsumerOptions): {
  handler(req: IncomingMessage, res: ServerResponse): Promise<void>;
  revalidated: Revalidation[];
};
export function startRevalidateConsumer(
  port?: number,
  options?: ConsumerOptions,
): Promise<{ server: Server; port: number; revalidated: Revalidation[] }>;
