import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { syncBuiltinWorkflows } from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';
import { notesWorkflow } from '../support/workflows';

/**
 * A release that ships a built-in whose id a workspace already authored still starts: the authored
 * workflow keeps its id (ids belong to one workflow forever), the built-in is not installed and is
 * reported, and every other built-in of the release is installed as usual.
 */
let h: Harness;
let owner: TestUser;

const TAKEN = 'plan-garden-diary';
const NEW = 'plan-pond-diary';

const definition = (id: string, name: string) => notesWorkflow(id, { name, description: `${name}, as a short report` });

beforeAll(async () => {
  h = await startHarness({ worker: false });
  owner = await registerUser(h, 'Owner');
  const authored = await h.request('POST', '/v1/workflows', {
    token: owner.token,
    body: { definition: definition(TAKEN, 'Garden diary') },
  });
  expect(authored.status, JSON.stringify(authored.body)).toBe(201);
});
afterAll(() => h?.stop());

describe('a built-in id a workspace already holds', () => {
  it('does not stop the release: the collision is reported, the authored workflow stays, other built-ins install', async () => {
    const release = [...loadBuiltinWorkflows(), definition(TAKEN, 'Platform garden diary'), definition(NEW, 'Pond diary')];
    const collisions = await syncBuiltinWorkflows(h.db, release as never);
    expect(collisions).toEqual([{ id: TAKEN, workspaceId: owner.workspaceId }]);
    const rows = await h.db
      .selectFrom('workflows')
      .select(['id', 'workspace_id', 'name'])
      .where('id', 'in', [TAKEN, NEW])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: TAKEN, workspace_id: owner.workspaceId, name: 'Garden diary' },
      { id: NEW, workspace_id: null, name: 'Pond diary' },
    ]);
    // Starting again reports it again, and changes nothing.
    expect(await syncBuiltinWorkflows(h.db, release as never)).toEqual(collisions);
    const versions = await h.db.selectFrom('workflow_versions').select(['workflow_id', 'state']).where('workflow_id', '=', TAKEN).execute();
    expect(versions).toEqual([{ workflow_id: TAKEN, state: 'draft' }]);
  });

  it('leaves the public catalog without the built-in, and the owner’s workflow theirs to edit', async () => {
    const catalog = await h.request('GET', '/v1/catalog/workflows');
    expect(catalog.status).toBe(200);
    const ids = (catalog.body.items ?? catalog.body).map((w: any) => w.id);
    expect(ids).toContain(NEW);
    expect(ids).not.toContain(TAKEN);
    const edited = await h.request('POST', '/v1/workflows', {
      token: owner.token,
      body: { definition: { ...definition(TAKEN, 'Garden diary'), description: 'Edited after the release' } },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  });
});
