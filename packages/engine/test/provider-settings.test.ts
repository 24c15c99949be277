import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModelRegistry } from '@atelier/domain';
import { configuredProviders, settingsFrom } from '../src/providers/index.js';

const secretsFile = (content: string) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'atelier-secrets-')), 'secrets.json');
  writeFileSync(file, content);
  return file;
};

describe('provider settings', () => {
  it('come from the environment, then the secrets file; the environment wins', () => {
    const file = secretsFile(JSON.stringify({ OPENAI_API_KEY: 'sk-file', OPENAI_BASE_URL: 'http://file.example/v1' }));
    const settings = settingsFrom({ ATELIER_SECRETS_FILE: file, OPENAI_BASE_URL: 'http://env.example/v1' });
    expect(configuredProviders(settings).openai).toMatchObject({ apiKey: 'sk-file', baseUrl: 'http://env.example/v1' });
  });

  it('leave a provider out when none of its settings is present, and its models out of the registry', () => {
    const configured = configuredProviders(settingsFrom({ OPENAI_API_KEY: '' }));
    expect(configured).toEqual({});
    const ids = buildModelRegistry(Object.keys(configured)).models.map((m) => m.id);
    expect(ids.every((id) => id.startsWith('local/'))).toBe(true);
    expect(buildModelRegistry(['openai']).get('openai/gpt-4o-mini')?.pricing.per_1k_input_tokens).toBe(0.00015);
  });

  it('name an unreadable secrets file without echoing what it holds', () => {
    const file = secretsFile('{"OPENAI_API_KEY": "sk-secret"');
    expect(() => settingsFrom({ ATELIER_SECRETS_FILE: file })).toThrow(/is not a readable JSON object/);
    expect(() => settingsFrom({ ATELIER_SECRETS_FILE: file })).not.toThrow(/sk-secret/);
  });
});
