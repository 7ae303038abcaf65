import { afterAll, describe } from 'vitest';
import { openPostgresStores } from '../../src/store/postgres/index.js';
import { DATABASE_URL, dropSchema, requireServer, testSchema } from './backends.js';
import { storeContract } from './contract.js';

const SUITE = 'postgres store';
const enabled = requireServer('DATABASE_URL', DATABASE_URL, SUITE);
const schema = testSchema();

describe.skipIf(!enabled)(SUITE, () => {
  const url = DATABASE_URL ?? '';
  afterAll(() => dropSchema(url, schema));
  storeContract('postgres', () => openPostgresStores({ connectionString: url, schema }));
});
