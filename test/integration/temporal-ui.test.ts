import { describe, expect, it } from 'vitest';
import { runExecutionUrl, temporalUiUrl } from '@atelier/api/console/temporal-ui';

/** ATELIER_TEMPORAL_UI_URL, the Web UI the console's run page links to (the page itself: console-run-page.test.ts). */
describe('the Temporal Web UI setting', () => {
  it('is optional, keeps a path prefix without its trailing slash, and a given value wins over the environment', () => {
    expect(temporalUiUrl({})).toBeUndefined();
    expect(temporalUiUrl({ ATELIER_TEMPORAL_UI_URL: '' })).toBeUndefined();
    expect(temporalUiUrl({ ATELIER_TEMPORAL_UI_URL: 'https://ops.example.com/temporal/' })).toBe('https://ops.example.com/temporal');
    expect(temporalUiUrl({ ATELIER_TEMPORAL_UI_URL: 'https://a.example.com' }, 'http://127.0.0.1:8233')).toBe('http://127.0.0.1:8233');
  });

  it('refuses what is not a plain http(s) URL, naming the setting', () => {
    for (const bad of ['127.0.0.1:8233', 'ftp://example.com', 'https://user:pw@example.com', 'https://example.com/?ns=x'])
      expect(() => temporalUiUrl({ ATELIER_TEMPORAL_UI_URL: bad }), bad).toThrow(/ATELIER_TEMPORAL_UI_URL/);
  });

  it("links a run's execution by its workflow id, the run id, in the namespace", () => {
    expect(runExecutionUrl('http://127.0.0.1:8233', 'default', 'run-1a2b3c4d')).toBe(
      'http://127.0.0.1:8233/namespaces/default/workflows/run-1a2b3c4d',
    );
  });
});
