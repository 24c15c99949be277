import { type Db, type WebhookTargetKind, publicationTargets, webhookEndpointTargets } from '@atelier/db';
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

/** How a target kind is found: its row's workspace, URL and sealed signing key. */
type TargetRow = { workspace_id: string; secret_sealed: string; url: string };
type TargetLookup = (db: Db, id: string) => Promise<TargetRow | undefined>;

/** The additional data a target's sealed key is bound to. */
export const targetBinding = (kind: WebhookTargetKind, id: string) => `${kind}:${id}`;

export function sealTargetKey(secretsKey: Buffer | undefined, kind: WebhookTargetKind, id: string, key: Buffer): string {
  if (!secretsKey) throw new SecretsKeyMissing();
  return sealSecret(secretsKey, key, targetBinding(kind, id));
}

const TARGETS: Record<WebhookTargetKind, TargetLookup> = {
  publication: async (db, id) => {
    const p = await publicationTargets.get(db, id);
    return p && { workspace_id: p.workspace_id, secret_sealed: p.secret_sealed, url: p.revalidate_url };
  },
  // A disabled endpoint is sent no new events; a message recorded before it was disabled still goes.
  webhook_endpoint: webhookEndpointTargets.get,
};

export async function loadWebhookTarget(
  db: Db,
  kind: WebhookTargetKind,
  id: string,
  secretsKey: Buffer | undefined,
): Promise<ResolvedWebhookTarget | undefined> {
  if (!secretsKey) throw new SecretsKeyMissing();
  const lookup = TARGETS[kind];
  if (!lookup) throw new Error(`unknown webhook target kind ${kind}`);
  const row = await lookup(db, id);
  if (!row) return undefined;
  return { kind, id, workspaceId: row.workspace_id, url: row.url, key: openSecret(secretsKey, row.secret_sealed, targetBinding(kind, id)) };
}
