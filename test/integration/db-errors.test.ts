import { describe, expect, it } from 'vitest';
import { classifyDbError } from '@atelier/db';

/**
 * classifyDbError on the errors Node raises when a database connection's far end is gone: each is an outage
 * to retry (503 with Retry-After at the gateway), never a bug (500). The chaos test met EPIPE on a pooled
 * connection whose server had restarted.
 */
describe('a connection whose server went away', () => {
  it('counts the socket errors Node raises as unavailable, EPIPE (shaped like a SQLSTATE) included', () => {
    for (const [code, syscall] of [
      ['EPIPE', 'write'],
      ['ECONNRESET', 'read'],
      ['ECONNREFUSED', 'connect'],
      ['ENOENT', 'connect'],
    ]) {
      const err = Object.assign(new Error(`${syscall} ${code}`), { code, syscall });
      expect(classifyDbError(err), code).toBe('unavailable');
    }
  });

  it('still reads PostgreSQL’s own codes: bad input, the server going away, a bug', () => {
    expect(classifyDbError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe('input');
    expect(classifyDbError(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe('unavailable');
    expect(classifyDbError(Object.assign(new Error('syntax error'), { code: '42601' }))).toBeUndefined();
  });

  it('counts a server that does not answer as unavailable: the query timeout and the closed connection after it', () => {
    expect(classifyDbError(new Error('Query read timeout'))).toBe('unavailable');
    expect(classifyDbError(new Error('Client was closed and is not queryable'))).toBe('unavailable');
    expect(classifyDbError(new Error('timeout exceeded when trying to connect'))).toBe('unavailable');
    expect(classifyDbError(new Error('Connection terminated due to connection timeout'))).toBe('unavailable');
  });
});
