import type Database from 'better-sqlite3';
import type { SlotStore } from '../types.js';
import { guard } from './db.js';
import type { GroupCommit } from './group-commit.js';

export function sqliteSlots(db: Database.Database, writes: GroupCommit): SlotStore {
  const purge = db.prepare('DELETE FROM slots WHERE account_id = ? AND expires_at <= ?');
  const count = db.prepare('SELECT COUNT(*) AS n FROM slots WHERE account_id = ? AND expires_at > ?');
  const insert = db.prepare('INSERT OR REPLACE INTO slots (account_id, slot_id, expires_at) VALUES (?, ?, ?)');
  const remove = db.prepare('DELETE FROM slots WHERE account_id = ? AND slot_id = ?');
  const extend = db.prepare('UPDATE slots SET expires_at = ? WHERE account_id = ? AND slot_id = ? AND expires_at > ?');
  const acquireTx = db.transaction((accountId: string, slotId: string, limit: number, nowMs: number, ttlMs: number) => {
    purge.run(accountId, nowMs);
    const n = (count.get(accountId, nowMs) as { n: number }).n;
    if (n >= limit) return { acquired: false, inFlight: n };
    insert.run(accountId, slotId, nowMs + ttlMs);
    return { acquired: true, inFlight: n + 1 };
  });
  return {
    acquire({ accountId, slotId, limit, nowMs, ttlMs }) {
      return writes.submit(() => acquireTx(accountId, slotId, limit, nowMs, ttlMs));
    },
    async release(accountId, slotId) {
      await writes.submit(() => remove.run(accountId, slotId));
    },
    async renew({ accountId, slotId, nowMs, ttlMs }) {
      const result = await writes.submit(() => extend.run(nowMs + ttlMs, accountId, slotId, nowMs));
      return result.changes === 1;
    },
    async inFlight(accountId, nowMs) {
      return guard(() => (count.get(accountId, nowMs) as { n: number }).n);
    },
  };
}
