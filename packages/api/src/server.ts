import { type ServerType, serve } from '@hono/node-server';
import { createApp } from './app';
import type { AppServices } from './services';

export interface ApiServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

export async function startApiServer(services: AppServices, port: number, hostname = '0.0.0.0'): Promise<ApiServer> {
  const app = createApp(services);
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname }, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return {
    port: actual,
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
