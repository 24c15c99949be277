import { type Db, type WebhookTargetKind, getPublication, getWebhookEndpoint } from '@atelier/db';
import { SecretsKeyMissing, openSecret, sealSecret } from './secret-box.js';

/**
 * Where a message goes and what signs it, read at send time: a target kind knows how to find its URL and
 * its current signing key. Publications and integrators' event webhook endpoints are the kinds; each reuses
 * everything else (signing, attempts, retries, egress, health) unchanged.
 */
export interface ResolvedWebhookTarget {
  kind: WebhookTargetKind;
  id: string;
  workspaceId: string;
  url: string;
  /** The current signing key bytes (what follows `whsec_`, decoded). */
  key: Buffer;
}

type TargetLoader = (db: Db, id: string, secretsKey: Buffer) => Promise<ResolvedWebhookTarget | undefined>;

/** The additional data a target's sealed key is bound to. */
export const targetBinding = (kind: WebhookTargetKind, id: string) => `${kind}:${id}`;

export function sealTargetKey(secretsKey: Buffer | undefined, kind: WebhookTargetKind, id: string, key: Buffer): string {
  if (!secretsKey) throw new SecretsKeyMissing();
  return sealSecret(secretsKey, key, targetBinding(kind, id));
}

const TARGETS: Record<WebhookTargetKind, TargetLoader> = {
  publication: async (db, id, secretsKey) => {
    const p = await getPublication(db, id);
    if (!p) return undefined;
    return {
      kind: 'publication',
      id,
      workspaceId: p.workspace_id,
      url: p.revalidate_url,
      key: openSecret(secretsKey, p.secret_sealed, targetBinding('publication', id)),
    };
  },
  // A disabled endpoint is sent no new events; a message recorded before it was disabled still goes.
  webhook_endpoint: async (db, id, secretsKey) => {
    const e = await getWebhookEndpoint(db, id);
    if (!e) return undefined;
    return {
      kind: 'webhook_endpoint',
      id,
      workspaceId: e.workspace_id,
      url: e.url,
      key: openSecret(secretsKey, e.secret_sealed, targetBinding('webhook_endpoint', id)),
    };
  },
};

export async function loadWebhookTarget(
  db: Db,
  kind: WebhookTargetKind,
  id: string,
  secretsKey: Buffer | undefined,
): Promise<ResolvedWebhookTarget | undefined> {
  if (!secretsKey) throw new SecretsKeyMissing();
  const load = TARGETS[kind];
  if (!load) throw new Error(`unknown webhook target kind ${kind}`);
  return load(db, id, secretsKey);
}
