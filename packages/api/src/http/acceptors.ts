import { spawn } from 'node:child_process';
import { type Server, type Socket, createServer } from 'node:net';

/**
 * More than one new connection taken per turn of the event loop.
 *
 * Since libuv 1.45 (Node 20) a listening socket accepts one connection each time the loop polls it
 * (libuv#3696). A gateway whose turns are long, because clients already connected keep it busy, then takes
 * a burst of new connections one turn at a time: on two busy cores, 64 clients connecting at once waited up
 * to 1.8 s for their turn while requests on open connections were answered in 50 ms
 * (docs/performance-log.md). Node 20 cannot open a second socket on the port (no SO_REUSEPORT for net
 * servers), so the gateway polls the one socket through several descriptors: each is a handle of its own in
 * the same loop, and each accepts a connection per turn. A connection any of them accepts is handed to the
 * HTTP server as its own would be, and so is counted, timed and closed with the rest.
 *
 * Node offers no way to duplicate a descriptor, but passing a handle to another process does: the
 * listening socket's raw handle is sent to a short-lived child, which sends it straight back, and what comes
 * back is a new descriptor for the same socket. A raw handle, not the server: a child given a server would
 * listen on it, and could take a connection meanwhile that nobody answers.
 *
 * Answers a function that closes the extra handles (the server's own is closed with the server).
 */
export async function addAcceptors(server: Server, count: number): Promise<() => void> {
  const extra = count > 1 ? await listeningCopies(server, count - 1) : [];
  // Stops listening at once. Not waiting for the copies' connections to end: they are the HTTP server's,
  // which closes them with its own (a copy's close callback would wait for every one of them).
  return () => {
    for (const copy of extra) copy.close();
  };
}

/**
 * A server that hands every connection it takes to `server`, from the moment it listens: the first copies
 * take connections while the last are still on their way.
 */
function handingTo(server: Server): Server {
  // Sockets made as node:http makes its own: half-open allowed, Nagle off.
  const copy = createServer({ allowHalfOpen: true, noDelay: true }, (socket: Socket) => server.emit('connection', socket));
  // An accept that fails (out of descriptors) is the server's error, whichever handle met it.
  copy.on('error', (err) => server.emit('error', err));
  return copy;
}

/** How long the copies may take before the gateway goes on with its one handle. */
const COPY_TIMEOUT_MS = 10_000;

const ECHO = "process.on('message', (m, handle) => process.send(m, handle, () => { if (m === 'last') process.exit(0); }));";

/** `n` servers listening on `server`'s socket through descriptors of their own. */
function listeningCopies(server: Server, n: number): Promise<Server[]> {
  const handle = (server as unknown as { _handle?: unknown })._handle;
  if (!handle) return Promise.reject(new Error('the server is not listening'));
  return new Promise((resolve, reject) => {
    const echo = spawn(process.execPath, ['-e', ECHO], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const copies: Server[] = [];
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      echo.kill();
      for (const copy of copies) copy.close();
      reject(err);
    };
    const timer = setTimeout(() => fail(new Error(`no descriptor copies within ${COPY_TIMEOUT_MS} ms`)), COPY_TIMEOUT_MS);
    echo.once('error', fail);
    // Done at 'close', not at the last copy: the child holds a descriptor of the socket for each one it
    // passed back until it has exited, and a port is free again only once every descriptor is closed.
    // 'close', not 'exit': it comes once the channel has delivered every message the child sent.
    echo.once('close', (code) => {
      if (copies.length < n) return fail(new Error(`the descriptor copier ended (${code}) after ${copies.length} of ${n} copies`));
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(copies);
    });
    echo.on('message', (_message, copied) => {
      if (settled) {
        (copied as { close?: () => void }).close?.();
        return;
      }
      copies.push(handingTo(server).listen(copied as never));
    });
    for (let i = 1; i <= n; i++) echo.send(i === n ? 'last' : 'copy', handle as never);
  });
}
