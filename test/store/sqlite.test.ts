import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openSqliteStores } from '../../src/store/sqlite/index.js';
import { storeContract } from './contract.js';

const dir = mkdtempSync(join(tmpdir(), 'pith-store-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeContract('sqlite', async () => openSqliteStores(dir));
