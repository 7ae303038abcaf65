import type Database from 'better-sqlite3';
import type { CacheStore } from '../types.js';
import { guard } from './db.js';

export function sqliteCache(db: Database.Database): CacheStore {
  const select = db.prepare('SELECT value FROM cache WHERE key = ? AND expires_at > ?');
  const upsert = db.prepare('INSERT OR REPLACE INTO cache (key, value, expires_at) VALUES (?, ?, ?)');
  const remove = db.prepare('DELETE FROM cache WHERE key = ?');
  const purgeExpired = db.prepare('DELETE FROM cache WHERE expires_at <= ?');
  let writes = 0;
  return {
    async get(key, nowMs) {
      return guard(() => (select.get(key, nowMs) as { value: string } | undefined)?.value ?? null);
    },
    async set(key, value, ttlMs, nowMs) {
      guard(() => {
        upsert.run(key, value, nowMs + ttlMs);
        // Expired rows are invisible to get(); sweep them now and then so the file stays bounded.
        if (++writes % 500 === 0) purgeExpired.run(nowMs);
      });
    },
    async delete(key) {
      guard(() => remove.run(key));
    },
  };
}
