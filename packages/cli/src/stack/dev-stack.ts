import type { Logger } from 'pino';
import { type AtelierConfig, defaultApiUrl } from '../config.js';
import { fileSigningSecret } from './file-signing-secret.js';
import { MALLOC_ENV, answersReady, freePort, stopIfStartFails, waitFor } from './processes.js';
import { resolveSecretsKey } from './secrets-key.js';
import { startStack } from './stack.js';
import { SupervisedProcess } from './supervisor.js';

/** Set in the environment of the processes `atelier dev` supervises: they watch for their parent and keep quiet about dev defaults. */
export const DEV_SUPERVISED_VARIABLE = 'ATELIER_DEV_SUPERVISED';

export interface DevStack {
  apiUrl: string;
  workerUrl: string;
  temporalAddress: string;
  temporalUiUrl?: string;
  databaseUrl: string;
  processes: SupervisedProcess[];
  egressAllowsPrivate: boolean;
  stop(): Promise<void>;
}

/**
 * `atelier dev` (`npm start`), shaped like production on one machine: this process brings up the embedded
 * Temporal dev server and PostgreSQL, migrates, and then supervises a gateway (`atelier api`) and a worker
 * (`atelier worker`) as processes of their own, each with its own event loop (and core), restarted when one
 * crashes. They run the same code as this process (tsx from sources, or the compiled dist/), with the
 * settings a production deployment would give them, filled in from the data dir. `stopRequested`
 * aborted while it starts stops everything started so far and rejects.
 */
export async function startDevStack(config: AtelierConfig, logger: Logger, stopRequested?: AbortSignal): Promise<DevStack> {
  const deps = await startStack(config, { api: false, worker: false, embedded: true, ...(stopRequested ? { stopRequested } : {}) }, logger);
  const processes: SupervisedProcess[] = [];
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await deps.stop();
  };
  return stopIfStartFails(stop, async () => {
    stopRequested?.throwIfAborted();
    const apiPort = config.apiPort || (await freePort());
    const workerPort = config.workerHttpPort || (await freePort());
    const secretsKey = await resolveSecretsKey(config.dataDir, true, logger);
    const given = process.env;
    const egressAllowsPrivate = (given.ATELIER_EGRESS_ALLOW_PRIVATE ?? 'true') !== 'false';
    const env: NodeJS.ProcessEnv = {
      ...MALLOC_ENV,
      ...given,
      DATABASE_URL: deps.databaseUrl,
      TEMPORAL_ADDRESS: deps.temporalAddress,
      ATELIER_API_PORT: String(apiPort),
      ATELIER_WORKER_PORT: String(workerPort),
      ATELIER_FILE_SIGNING_SECRET: await fileSigningSecret(config, true),
      // The gateway's own address unless the developer names another; a production gateway must be told.
      ATELIER_PUBLIC_URL: config.publicUrl ?? `http://127.0.0.1:${apiPort}`,
      // `atelier dev` fetches from this machine (its own gateway, local clip servers) unless told not to.
      ATELIER_EGRESS_ALLOW_PRIVATE: String(egressAllowsPrivate),
      // The console links runs to the dev server's Web UI, unless the developer names another UI.
      ...(given.ATELIER_TEMPORAL_UI_URL || deps.temporalUiUrl
        ? { ATELIER_TEMPORAL_UI_URL: given.ATELIER_TEMPORAL_UI_URL || deps.temporalUiUrl }
        : {}),
      ...(secretsKey ? { ATELIER_SECRETS_KEY: secretsKey.toString('base64') } : {}),
      [DEV_SUPERVISED_VARIABLE]: '1',
    };
    // The same entry point and loader flags as this process: tsx from sources, or plain node on dist/.
    const self = [...process.execArgv, process.argv[1] ?? ''];
    for (const [name, command] of [
      ['worker', 'worker'],
      ['gateway', 'api'],
    ] as const) {
      const child = new SupervisedProcess({ name, command: process.execPath, args: [...self, command], env, logger });
      child.start();
      processes.push(child);
    }
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const workerUrl = `http://127.0.0.1:${workerPort}`;
    // Given up when the start is called off (then stopped below, all of it).
    const aborted = () => stopRequested?.aborted ?? false;
    await Promise.all([
      waitFor('the gateway', answersReady(apiUrl), 180_000, aborted),
      waitFor('the worker', answersReady(workerUrl), 180_000, aborted),
    ]);
    return {
      apiUrl,
      workerUrl,
      temporalAddress: deps.temporalAddress,
      ...(deps.temporalUiUrl ? { temporalUiUrl: deps.temporalUiUrl } : {}),
      databaseUrl: deps.databaseUrl,
      processes,
      egressAllowsPrivate,
      stop,
    };
  });
}

/** What `npm start` prints once everything answers. */
export function devBanner(stack: DevStack, config: AtelierConfig): string {
  const register = `curl -s -X POST ${stack.apiUrl}/v1/auth/register -H 'content-type: application/json' -d '{"email":"you@example.com","password":"a-long-password","name":"You"}'`;
  const [worker, gateway] = stack.processes;
  // The CLI finds this gateway by itself on the default port (defaultApiUrl); on another it needs --url once.
  const url = stack.apiUrl === defaultApiUrl({}) ? '' : ` --url ${stack.apiUrl}`;
  return [
    '',
    'Atelier is running.',
    `  API            ${stack.apiUrl}/v1`,
    `  API docs       ${stack.apiUrl}/docs   (OpenAPI: ${stack.apiUrl}/openapi.json)`,
    stack.temporalUiUrl ? `  Temporal UI    ${stack.temporalUiUrl}` : `  Temporal       ${stack.temporalAddress}`,
    `  PostgreSQL     ${stack.databaseUrl.replace(/:[^:@/]+@/, ':***@')}`,
    `  Processes      gateway pid ${gateway?.pid}, worker pid ${worker?.pid} (metrics ${stack.workerUrl}/metrics); restarted if they crash`,
    `  Data           ${config.dataDir}`,
    stack.egressAllowsPrivate
      ? '  Egress         dev mode: fetches of caller-named URLs may reach loopback and private addresses (ATELIER_EGRESS_ALLOW_PRIVATE=false to deny)'
      : '',
    `\nFirst steps, in another terminal (init registers you, makes an API key and saves it):\n  npm run atelier -- init${url}\n  npm run atelier -- runs start plan-research-report --set topic="urban beekeeping" --watch`,
    `Or over HTTP (the response's accessToken; then create an API key with POST /v1/api-keys):\n  ${register}`,
    '\nCtrl-C stops everything.',
    '',
  ]
    .filter((l) => l !== '')
    .join('\n');
}
