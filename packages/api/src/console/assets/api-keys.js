// Settings › API keys: the caller's live keys (GET /v1/api-keys), a new key whose secret the API returns
// once (POST), and revoking one (DELETE /v1/api-keys/{key_id}), which stops it at once.
import { api, session } from './api.js';
import { $, announce, h, table, time } from './dom.js';
import { confirmButton, loadInto, onSubmit, showSecretOnce } from './settings.js';

function keyRow(key, reload) {
  return [
    h('strong', {}, key.name),
    h('code', {}, `${key.prefix}…`),
    key.workspaceId
      ? key.workspaceId === session.workspaceId
        ? 'this workspace'
        : h('code', { class: 'small' }, key.workspaceId)
      : 'any of yours',
    time(key.createdAt),
    key.lastUsedAt ? time(key.lastUsedAt) : h('span', { class: 'muted' }, 'never'),
    key.revokedAt
      ? h('span', {}, 'revoked ', time(key.revokedAt))
      : confirmButton('Revoke', `Revoke “${key.name}”? Anything using it gets 401 from now on.`, async () => {
          await api('DELETE', `/v1/api-keys/${encodeURIComponent(key.id)}`);
          announce(`Revoked the key “${key.name}”.`, 'ok');
          await reload();
        }),
  ];
}

export async function apiKeysPage() {
  const target = $('#keys-table');
  const reload = () =>
    loadInto(target, async () => {
      const keys = await api('GET', '/v1/api-keys?limit=100');
      return keys.items.length
        ? table(
            ['Name', 'Starts with', 'Works in', 'Created', 'Last used', ''],
            keys.items.map((k) => keyRow(k, reload)),
            `${keys.total} live key${keys.total === 1 ? '' : 's'}, newest first`,
          )
        : h('p', { class: 'muted' }, 'You have no live API keys.');
    });
  onSubmit($('#key-create'), async (data) => {
    const body = { name: String(data.get('name') ?? '').trim() };
    // Bound to the picked workspace, the key can act nowhere else (403 there), whatever its owner can reach.
    if (data.get('bound')) body.workspaceId = session.workspaceId;
    const key = await api('POST', '/v1/api-keys', body);
    $('#key-create').reset();
    showSecretOnce($('#key-secret'), {
      title: `Secret of the key “${key.name}”`,
      secret: key.secret,
      use: 'Send it as Authorization: Bearer <secret>; it carries your permissions.',
    });
    await reload();
  });
  await reload();
}
