import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { spawnManaged, waitFor } from './processes.js';
import { temporalSettings } from './paths.js';

export interface TemporalDevServer {
  address: string;
  uiUrl: string;
  stop(): Promise<void>;
  /** SIGKILL, no clean shutdown: what a crash or an OOM kill does to it (the chaos bench restarts it on the same file). */
  kill(): Promise<void>;
}

export interface DevServerOptions {
  cliPath: string;
  dbFile: string;
  port: number;
  uiPort: number;
  headless?: boolean;
  log: (line: string) => void;
}

/** Starts `temporal server start-dev` with a SQLite file, so executions survive a restart. */
export async function startTemporalDevServer(opts: DevServerOptions): Promise<TemporalDevServer> {
  const settings = temporalSettings();
  await mkdir(path.dirname(opts.dbFile), { recursive: true });
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--ui-port',
    String(opts.uiPort),
    '--db-filename',
    opts.dbFile,
    '--log-level',
    'warn',
    '--namespace',
    settings.namespace,
    ...Object.entries(settings.dynamicConfig).flatMap(([k, v]) => ['--dynamic-config-value', `${k}=${JSON.stringify(v)}`]),
    ...(opts.headless ? ['--headless'] : []),
  ];
  const proc = spawnManaged(opts.cliPath, args, opts.log);
  const address = `127.0.0.1:${opts.port}`;
  const exited = () => proc.child.exitCode !== null;
  try {
    const connection = await waitFor(
      'the Temporal dev server',
      () => Connection.connect({ address, connectTimeout: 1_000 }),
      60_000,
      exited,
    );
    try {
      await waitFor(
        'the Temporal namespace',
        () => connection.workflowService.describeNamespace({ namespace: settings.namespace }),
        60_000,
        exited,
      );
      await ensureSearchAttributes(connection, settings.namespace);
    } finally {
      await connection.close();
    }
  } catch (err) {
    await proc.stop('SIGKILL');
    throw err;
  }
  return { address, uiUrl: `http://127.0.0.1:${opts.uiPort}`, stop: () => proc.stop('SIGTERM', 15_000), kill: () => proc.stop('SIGKILL') };
}

const { IndexedValueType } = proto.temporal.api.enums.v1;
const TYPES: Record<string, proto.temporal.api.enums.v1.IndexedValueType> = {
  Keyword: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  Text: IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
  Int: IndexedValueType.INDEXED_VALUE_TYPE_INT,
  Bool: IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
  Datetime: IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
  Double: IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
  KeywordList: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};

/**
 * Registers Atelier's custom search attributes when they are missing. Works the same against the dev
 * server and a production cluster (where an operator may prefer to run it once by hand).
 */
export async function ensureSearchAttributes(connection: Pick<Connection, 'operatorService'>, namespace: string): Promise<string[]> {
  const wanted = temporalSettings().searchAttributes;
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = Object.entries(wanted).filter(([name]) => !(name in (existing.customAttributes ?? {})));
  if (missing.length === 0) return [];
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map(([name, type]) => [name, TYPES[type] ?? TYPES.Keyword!])),
  });
  return missing.map(([name]) => name);
}
