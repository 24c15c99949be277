import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { declaredOperations } from '../src/http/operations.js';
import { parseReference, tagsInOrder } from '../src/reference/reference.js';
import type { AppServices } from '../src/services.js';
import { IDEMPOTENCY_WINDOW_HOURS } from '@atelier/db';
import { MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE, WEBHOOK_TEST_EVENT } from '@atelier/contracts/webhook-endpoints';
import { REPLAYED_HEADER } from '../src/http/idempotency.js';

const SECTION = `# clients

The businesses a workspace works for.

## GET /v1/clients/{client_id}

A client with its projects

A client as it stands;
its etag is in the ETag header.

A second paragraph.

Answer: The client
Errors: 401, 404

## POST /v1/queue/{run_id}:decide

Decide

Decides one run.

Operation id: decideRun
`;

describe('the API reference', () => {
  it('reads a tag, its description and its operations, with summary, description and fields', () => {
    const reference = parseReference(SECTION, 'clients.md');
    expect(reference.name).toBe('clients');
    expect(reference.description).toBe('The businesses a workspace works for.');
    expect([...reference.operations.keys()]).toEqual(['GET /v1/clients/{client_id}', 'POST /v1/queue/{run_id}:decide']);
    expect(reference.operations.get('GET /v1/clients/{client_id}')).toEqual({
      method: 'get',
      path: '/v1/clients/{client_id}',
      summary: 'A client with its projects',
      description: 'A client as it stands; its etag is in the ETag header.\n\nA second paragraph.',
      answer: 'The client',
      errors: [401, 404],
    });
    expect(reference.operations.get('POST /v1/queue/{run_id}:decide')).toMatchObject({ operationId: 'decideRun', errors: [] });
  });

  it.each([
    ['a heading that is not METHOD /path', SECTION.replace('## GET /v1/clients/{client_id}', '## Clients'), /is not "## METHOD \/path"/],
    ['an operation without a description', SECTION.replace('\n\nDecides one run.', ''), /needs a summary and a description/],
    ['an error that is not 4xx or 5xx', SECTION.replace('Errors: 401, 404', 'Errors: 401, 204'), /not a 4xx or 5xx/],
    ['an operation twice', `${SECTION}\n## GET /v1/clients/{client_id}\n\nA\n\nB\n`, /GET \/v1\/clients\/\{client_id\} twice/],
    ['no title', SECTION.replace('# clients', 'clients'), /no "# tag" title/],
  ])('refuses %s, naming the file', (_, markdown, message) => {
    expect(() => parseReference(markdown, 'clients.md')).toThrow(message);
    expect(() => parseReference(markdown, 'clients.md')).toThrow(/^clients\.md: /);
  });

  it('lists every file in its index, and every operation it documents is served by a route, and the other way round', () => {
    const dir = fileURLToPath(new URL('../src/reference/', import.meta.url));
    const files = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'index.md');
    const tags = tagsInOrder();
    expect(tags.map((t) => `${t.name.toLowerCase().replaceAll(' ', '-')}.md`).sort()).toEqual(files.sort());
    createApp({ publicUrl: 'http://127.0.0.1' } as unknown as AppServices);
    const documented = tags.flatMap((t) => [...t.operations.keys()]);
    expect(documented.filter((key) => !declaredOperations().has(key))).toEqual([]);
    expect(declaredOperations().size).toBe(documented.length);
  });

  it('quotes the limits and names the code holds as the code holds them', () => {
    const words = (key: string) => {
      const op = tagsInOrder()
        .flatMap((t) => [...t.operations.entries()])
        .find(([k]) => k === key)?.[1];
      return `${op?.summary} ${op?.description}`;
    };
    for (const key of ['POST /v1/runs', 'POST /v1/orders']) {
      expect(words(key)).toContain(`within ${IDEMPOTENCY_WINDOW_HOURS} hours`);
      expect(words(key)).toContain(`${REPLAYED_HEADER}: true`);
    }
    expect(words('POST /v1/runs/bulk-rerun')).toContain(`within ${IDEMPOTENCY_WINDOW_HOURS} hours`);
    expect(words('POST /v1/webhook-endpoints')).toContain(`at most ${MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE} per workspace`);
    expect(words('POST /v1/webhook-endpoints/{endpoint_id}/test')).toContain(`Send an ${WEBHOOK_TEST_EVENT} event`);
  });
});
