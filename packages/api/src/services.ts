import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Db, HomeMembership, LeasedCommand } from '@atelier/db';
import type { ModelRegistry } from '@atelier/domain';
import type { EgressPolicy } from '@atelier/egress';
import type { ObjectStorage } from '@atelier/storage';
import type { FileUrlSigning } from '@atelier/storage/file-urls';
import type { RunEventHub } from './events/run-event-hub.js';
import type { WebhookRetrySettings } from '@atelier/engine/webhooks/types';
import type { GatewayMetrics } from './metrics.js';
import type { JobWebhooks } from '@atelier/engine/providers/types';
import type { LoginThrottleSettings } from './auth/login-throttle.js';

/** What route handlers reach through the context instead of importing globals. */
export interface AppServices {
  db: Db;
  temporal: Client;
  taskQueue: string;
  logger: Logger;
  models: ModelRegistry;
  storage: ObjectStorage;
  /**
   * The secret and lifetime of signed file URLs (`content.url`, `/v1/files/{key}?exp&sig`). Every gateway
   * of a deployment needs the same secret; absent, createApp makes a random one for this process only
   * (its URLs die with it).
   */
  fileUrls?: FileUrlSigning;
  /**
   * The origin clients reach the gateway at (ATELIER_PUBLIC_URL). Signed file URLs are made on it, never on
   * a request's Host header, which a caller controls. startApiServer defaults it to the address it listens
   * on; `atelier api` requires it.
   */
  publicUrl?: string;
  /**
   * The bearer token that /metrics on the API port asks for (ATELIER_METRICS_TOKEN). Absent, the API port
   * serves no metrics: they name routes and built-in workflows, which are the operator's, not a caller's.
   */
  metricsToken?: string;
  /** The process's one database listener feeding every run event stream. */
  events: RunEventHub;
  /** Children of one order in flight at once (default 8). */
  orderConcurrency?: number;
  /**
   * Delivers recorded engine commands to Temporal; woken after a request records one. One that takes
   * hand-overs is given the runs this gateway creates, their starts leased to it (insertRunLeased).
   */
  dispatcher?: { wake(): void; handOver?(command: LeasedCommand): void };
  /** Comment heartbeat interval of event streams (15 s unless a test shortens it). */
  sseHeartbeatMs?: number;
  /** The gateway's policy for fetches of caller-named URLs (brand font capture); production's deny policy when absent. */
  egress?: EgressPolicy;
  /** The key sealing webhook signing secrets (ATELIER_SECRETS_KEY when absent); publications need it. */
  secretsKey?: Buffer;
  /** Backoff of webhook deliveries this gateway's dispatcher starts (ATELIER_WEBHOOK_RETRY_* when absent). */
  webhookRetry?: Partial<WebhookRetrySettings>;
  /** How failed sign-ins are throttled (ATELIER_LOGIN_* over the defaults when absent; auth/login-throttle.ts). */
  loginThrottle?: Partial<LoginThrottleSettings>;
  /** Verifies completion webhooks of a provider that runs jobs (its adapter's JobWebhooks); absent, none are taken. */
  providerWebhooks?: (provider: string) => JobWebhooks | undefined;
  /** Proxies in front of the gateway whose X-Forwarded-For is believed (ATELIER_TRUSTED_PROXY_HOPS, else 0). */
  trustedProxyHops?: number;
  /**
   * The Temporal Web UI the console's run page links a run's execution to (ATELIER_TEMPORAL_UI_URL when
   * absent; console/temporal-ui.ts). Neither set: no link.
   */
  temporalUiUrl?: string;
}

/** Who is calling: a signed-in session or an API key, always on behalf of one user. */
export interface Principal {
  userId: string;
  via: 'session' | 'api_key';
  sessionId?: string;
  apiKeyId?: string;
  apiKeyName?: string;
  /** Set when the API key was bound to one workspace at creation. */
  keyWorkspaceId?: string | null;
  /** The membership read with the credential (access.ts answers for that workspace without a query). */
  home?: HomeMembership;
}

export type AppEnv = {
  Variables: {
    services: AppServices;
    requestId: string;
    logger: Logger;
    principal: Principal;
    /** The gateway's Prometheus metrics, set by the httpMetrics middleware. */
    metrics?: GatewayMetrics;
  };
};
