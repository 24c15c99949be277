import { describe, expect, it } from 'vitest';
import { gatewayOrigin, resolveCredentials } from '../src/api/credentials.js';
import { given } from '../src/api/cli-kit.js';
import { ApiFailure, apiErrorText, describeApiError, retryAfterSeconds } from '../src/api/errors.js';
import { money, researchReportMarkdown } from '../src/api/format.js';

describe('money: one formatter for every cost the CLI prints', () => {
  it.each([
    [0, '$0.00'],
    [5, '$5.00'],
    [0.05, '$0.05'],
    [0.1, '$0.10'],
    [1.2345, '$1.2345'],
    [1.23456, '$1.2346'],
    [0.000042, '$0.000042'],
    [0.0000421, '$0.000042'],
    [0.0012, '$0.0012'],
    [-0.5, '-$0.50'],
    [null, '-'],
    [undefined, '-'],
  ])('%s prints %s', (n, printed) => {
    expect(money(n)).toBe(printed);
  });
});

describe('API errors as sentences (the contract’s { detail } bodies)', () => {
  it('a budget refusal says what is left of the limit and the estimate', () => {
    const body = {
      detail: {
        code: 'budget_exceeded',
        reason: 'hard_stop',
        budgetId: 'budget-1',
        scope: 'workspace',
        enforcementMode: 'hard_stop',
        limitUsd: 0.05,
        spendUsd: 0.04,
        runEstimateUsd: 0.02,
        remainingUsd: 0.01,
      },
    };
    const text = describeApiError(402, body);
    expect(text).toMatch(
      /^Budget exceeded: \$0\.01 left of \$0\.05 in the workspace budget \(spent \$0\.04\), and this is estimated at \$0\.02/,
    );
    expect(text).toContain('budget-1');
  });

  it('an invalid intake lists each field; request validation lists each issue with where it is', () => {
    const intake = describeApiError(422, {
      detail: { error: 'intake_invalid', code: 'intake_invalid', fields: ['topic is required', 'depth must be one of brief, standard'] },
    });
    expect(intake).toContain('The intake is not valid:\n  - topic is required\n  - depth must be one of brief, standard');
    const request = describeApiError(422, { detail: [{ type: 'missing', loc: ['body', 'templateId'], msg: 'Required' }] });
    expect(request).toBe('The request is not valid:\n  - body.templateId: Required');
  });

  it('not found, forbidden, conflict and a deprecated workflow read as sentences', () => {
    expect(describeApiError(404, { detail: 'run run-00000000 not found' })).toBe('Not found: run run-00000000 not found.');
    expect(describeApiError(403, { detail: { code: 'workspace_bound_key', message: 'this key is bound to another workspace' } })).toBe(
      'Forbidden: this key is bound to another workspace (workspace_bound_key).',
    );
    expect(describeApiError(409, { detail: { code: 'invalid_transition', message: 'a revoked consent cannot resume' } })).toBe(
      'Conflict: a revoked consent cannot resume (invalid_transition).',
    );
    expect(
      describeApiError(400, { detail: { code: 'template_deprecated', templateId: 'old-flow', supersededBy: 'new-flow', message: 'm' } }),
    ).toMatch(/^Workflow old-flow is deprecated; use new-flow instead\./);
    expect(describeApiError(401, { detail: 'invalid API key' })).toMatch(/^Not signed in: invalid API key\. .*atelier init/);
  });

  it('rate limited and unavailable say when to retry (Retry-After, or retryAfterSeconds in the body)', () => {
    expect(describeApiError(429, { detail: { code: 'login_throttled', message: 'slow down', retryAfterSeconds: 8 } })).toBe(
      'Too many failed sign-ins: slow down. Retry after 8 seconds.',
    );
    expect(describeApiError(503, { detail: 'the database is unavailable' }, 5)).toBe(
      'Service unavailable: the database is unavailable. Retry after 5 seconds.',
    );
    expect(retryAfterSeconds(new Headers({ 'retry-after': '12' }))).toBe(12);
    expect(retryAfterSeconds(new Headers())).toBeUndefined();
  });

  it('with --json the raw body is printed, nothing else', () => {
    const failure = new ApiFailure(404, { detail: 'no such run' }, 'GET /v1/runs/x');
    expect(JSON.parse(apiErrorText(failure, true))).toEqual({ detail: 'no such run' });
    expect(apiErrorText(failure, false)).toBe(
      'error: Not found: no such run.\n  (GET /v1/runs/x answered 404; --json prints the error body)',
    );
  });
});

describe('a research report as Markdown (artifacts download writes it as report.md)', () => {
  it('has the title, the summary, a heading per section and the sources', () => {
    const md = researchReportMarkdown({
      type: 'research-report',
      title: 'Tides',
      summary: 'The moon pulls.',
      sections: [
        { heading: 'Causes', body: 'Gravity.' },
        { heading: 'Effects', body: 'Wet sand.' },
      ],
      sources: ['https://example.com/tides', ''],
    });
    expect(md).toBe(
      '# Tides\n\nThe moon pulls.\n\n## Causes\n\nGravity.\n\n## Effects\n\nWet sand.\n\n## Sources\n\n- https://example.com/tides\n',
    );
    expect(researchReportMarkdown({ type: 'image', url: 'x' })).toBeUndefined();
  });
});

describe('the gateway a command goes to', () => {
  it('is the URL without a trailing slash or /v1 (the API line `atelier dev` prints works as --url)', async () => {
    expect(gatewayOrigin('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080');
    expect(gatewayOrigin('http://127.0.0.1:8080/v1/')).toBe('http://127.0.0.1:8080');
    expect(gatewayOrigin('https://example.com/atelier/')).toBe('https://example.com/atelier');
  });

  it('defaults to the gateway `atelier dev` serves: its ATELIER_API_PORT, else 8080', async () => {
    const none = { HOME: '/nonexistent', XDG_CONFIG_HOME: '' };
    expect((await resolveCredentials({}, none)).url).toBe('http://127.0.0.1:8080');
    expect((await resolveCredentials({}, { ...none, ATELIER_API_PORT: '9090' })).url).toBe('http://127.0.0.1:9090');
    expect((await resolveCredentials({}, { ...none, ATELIER_API_PORT: '0' })).url).toBe('http://127.0.0.1:8080');
    expect((await resolveCredentials({ url: 'http://h:1/v1' }, none)).url).toBe('http://h:1');
  });
});

describe('given: the flags a command was given, under the API’s names', () => {
  it('renames the flags given and sends none that was left out or empty', () => {
    const opts = { workflow: 'wf_1', workspace: undefined, project: '', status: 'failed', limit: 20 };
    expect(given(opts, { workflow: 'templateId', workspace: 'workspaceId', project: 'projectId', status: 'status' })).toEqual({
      templateId: 'wf_1',
      status: 'failed',
    });
  });

  it('keeps a repeated flag’s list as it is', () => {
    expect(given({ run: ['run_1', 'run_2'] }, { run: 'runIds' })).toEqual({ runIds: ['run_1', 'run_2'] });
  });
});
