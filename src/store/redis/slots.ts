import type { SlotAcquireResult, SlotStore } from '../types.js';
import type { RedisClient } from './client.js';
import { guard, luaScript } from './client.js';

/**
 * Atomic acquire on the account's sorted set (member = slot id, score = expiry ms):
 * drop expired, count the others, add when under the limit. The key itself expires with
 * its newest slot, so idle accounts leave nothing behind.
 * KEYS[1] set · ARGV now, limit, expiresAt, slotId, ttlMs
 */
const ACQUIRE = luaScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local n = redis.call('ZCARD', KEYS[1])
if redis.call('ZSCORE', KEYS[1], ARGV[4]) then n = n - 1 end
if n >= tonumber(ARGV[2]) then return {0, n} end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
local ttl = tonumber(ARGV[5])
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
return {1, n + 1}
`);

/**
 * Extends a live slot: only when its expiry is still ahead of now (XX: never adds a slot).
 * The key's own expiry follows the newest slot.
 * KEYS[1] set · ARGV now, expiresAt, slotId, ttlMs
 */
const RENEW = luaScript(`
local score = redis.call('ZSCORE', KEYS[1], ARGV[3])
if not score or tonumber(score) <= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[3])
local ttl = tonumber(ARGV[4])
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1
`);

/** Concurrency slots in Redis: one sorted set per account, shared by every instance. Live while now < expiry. */
export function redisSlots(client: RedisClient, prefix: string): SlotStore {
  const key = (accountId: string): string => `${prefix}slots:${accountId}`;
  return {
    acquire: ({ accountId, slotId, limit, nowMs, ttlMs }) =>
      guard(async (): Promise<SlotAcquireResult> => {
        const ttl = Math.max(1, Math.ceil(ttlMs));
        const reply = (await ACQUIRE(client, [key(accountId)], [nowMs, limit, nowMs + ttlMs, slotId, ttl])) as [number, number];
        return { acquired: reply[0] === 1, inFlight: Number(reply[1]) };
      }),
    release: (accountId, slotId) =>
      guard(async () => {
        await client.zrem(key(accountId), slotId);
      }),
    renew: ({ accountId, slotId, nowMs, ttlMs }) =>
      guard(async () => {
        const ttl = Math.max(1, Math.ceil(ttlMs));
        return (await RENEW(client, [key(accountId)], [nowMs, nowMs + ttlMs, slotId, ttl])) === 1;
      }),
    inFlight: (accountId, nowMs) => guard(async () => client.zcount(key(accountId), `(${nowMs}`, '+inf')),
  };
}
