import { openSqliteStores } from './sqlite/index.js';
import type { Stores } from './types.js';

/**
 * Picks the storage backends from config. SQLite under dataDir is the zero-setup default;
 * PostgreSQL/Redis backends plug in here (issue 8).
 */
export async function openStores(config: { dataDir: string; databaseUrl: string | null; redisUrl: string | null }): Promise<Stores> {
  return openSqliteStores(config.dataDir);
}
