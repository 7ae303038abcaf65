import { createHash } from 'node:crypto';

/** Display prefix of every key; the rest is 32 random bytes, base64url. */
export const API_KEY_PREFIX = 'pk_';
const API_KEY_PATTERN = /^pk_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(randomBytes: (n: number) => Buffer): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Keys are stored only as SHA-256; a key with 256 bits of entropy needs no slow hash. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What is shown of a key after creation: `pk_` + 6 characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 6);
}

export function looksLikeApiKey(key: string): boolean {
  return API_KEY_PATTERN.test(key);
}
