import { httpBaseUrl } from '../http/public-origin.js';
/**
 * The Temporal Web UI the console links runs to (ATELIER_TEMPORAL_UI_URL): an http(s) URL, with a path
 * prefix when the UI is served under one, kept without its trailing slash. Unset, the console shows no
 * link: only the deployment knows where its UI is (guessing the dev server's port would be wrong behind
 * any other). `atelier dev` sets it to its dev server's UI. Refused at start when malformed, rather than
 * every run page linking nowhere.
 */
export function temporalUiUrl(env: NodeJS.ProcessEnv, given?: string): string | undefined {
  const configured = given ?? env.ATELIER_TEMPORAL_UI_URL;
  if (!configured) return undefined;
  return httpBaseUrl('ATELIER_TEMPORAL_UI_URL', configured, 'https://temporal.example.com');
}

/** The Web UI's page of a run's execution: a run's workflow id is its run id (engine/src/client.ts). */
export const runExecutionUrl = (ui: string, namespace: string, runId: string) =>
  `${ui}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(runId)}`;
