import { type Server, createServer, get } from 'node:http';
import { type Socket, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addAcceptors } from '../src/http/acceptors.js';

/**
 * How many turns of its event loop a server takes to accept `clients` connections opened at once, over real
 * sockets. The connects are all issued before the loop turns again, and the kernel completes a loopback
 * handshake within the connect call, so every connection waits in the socket's queue when the loop next
 * polls it. Each connection is stamped with the turn that took it (a setImmediate chain counts the turns).
 */
async function turnsToTake(server: Server, clients: number): Promise<number> {
  const port = (server.address() as { port: number }).port;
  let turn = 0;
  let counting = true;
  const count = () => {
    turn += 1;
    if (counting) setImmediate(count);
  };
  count();
  const turns: number[] = [];
  const taken = new Promise<void>((resolve) => {
    server.on('connection', () => {
      turns.push(turn);
      if (turns.length === clients) resolve();
    });
  });
  opened.push(...Array.from({ length: clients }, () => connect(port, '127.0.0.1').on('error', () => {})));
  await taken;
  counting = false;
  return new Set(turns).size;
}

const opened: Socket[] = [];
const closing: Array<() => unknown> = [];
afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  for (const close of closing.splice(0).reverse()) await close();
});

async function listening(): Promise<Server> {
  const server = createServer((req, res) => res.end(`answered ${req.url}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise((resolve) => server.close(resolve)));
  return server;
}

/** Every descriptor of the socket closed: the port can be listened on again. */
async function expectFree(port: number): Promise<void> {
  const again = createServer();
  await new Promise<void>((resolve, reject) => again.once('error', reject).listen(port, '127.0.0.1', resolve));
  await new Promise((resolve) => again.close(resolve));
}

describe('acceptors', () => {
  it('takes one new connection per turn with the server alone, as Node does', async () => {
    const server = await listening();
    expect(await turnsToTake(server, 12)).toBe(12);
  });

  it('takes as many per turn as it has acceptors', async () => {
    const server = await listening();
    closing.push(await addAcceptors(server, 4));
    // 12 connections, 4 a turn: 3 turns (a fourth when the queue is read just as the last arrive).
    expect(await turnsToTake(server, 12)).toBeLessThanOrEqual(4);
  });

  it('refuses a server that is not listening, so the gateway can go on with its one handle', async () => {
    await expect(addAcceptors(createServer(), 4)).rejects.toThrow('not listening');
  });

  it('answers requests on connections its copies took, and lets the port go when closed', async () => {
    const server = await listening();
    const closeCopies = await addAcceptors(server, 8);
    const port = (server.address() as { port: number }).port;
    const answers = await Promise.all(
      Array.from(
        { length: 16 },
        (_, i) =>
          new Promise<string>((resolve, reject) => {
            get({ port, host: '127.0.0.1', path: `/${i}`, agent: false }, (res) => {
              let body = '';
              res.on('data', (d) => {
                body += d;
              });
              res.on('end', () => resolve(body));
            }).on('error', reject);
          }),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 16 }, (_, i) => `answered /${i}`));
    closeCopies();
    await new Promise((resolve) => server.close(resolve));
    closing.length = 0;
    await expectFree(port);
  });

  it('holds no descriptor of the socket once it has answered, so a port closed at once is free at once', async () => {
    const server = await listening();
    const port = (server.address() as { port: number }).port;
    const closeCopies = await addAcceptors(server, 8);
    closeCopies();
    await new Promise((resolve) => server.close(resolve));
    closing.length = 0;
    await expectFree(port);
  });
});
