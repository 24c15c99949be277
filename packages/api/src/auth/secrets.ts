import { hash, verify } from '@node-rs/argon2';
import { newSecret, sha256Hex } from '@atelier/domain';

// Argon2id (algorithm 2); the enum is a const enum the isolated-module build cannot import.
const ARGON2ID = 2;

export const hashPassword = (password: string) => hash(password, { algorithm: ARGON2ID });
export const verifyPassword = (stored: string, password: string) => verify(stored, password).catch(() => false);

/** API key secrets are recognisable by their prefix; only their SHA-256 is stored. */
export const API_KEY_PREFIX = 'atl_';
export const newApiKeySecret = () => `${API_KEY_PREFIX}${newSecret()}`;
export const newSessionToken = () => newSecret();
export const tokenHash = (token: string) => sha256Hex(token);
