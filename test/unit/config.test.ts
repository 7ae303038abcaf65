import { describe, expect, it } from 'vitest';
import { ConfigError, MIN_TOKEN_CHARS, loadConfig } from '../../src/config.js';

const base = { DATA_DIR: '/tmp/pith-config-test', LOG_LEVEL: 'silent', ENGINE_VERSION: 't' };

describe('loadConfig bearer secrets', () => {
  it.each(['ADMIN_TOKEN', 'METRICS_TOKEN'])('refuses a %s shorter than 32 characters', (name) => {
    expect(() => loadConfig({ ...base, [name]: 'x'.repeat(MIN_TOKEN_CHARS - 1) })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, [name]: 'short' })).toThrow(/at least 32 characters/);
  });

  it('takes tokens of 32 characters and more, and leaves unset ones disabled', () => {
    const config = loadConfig({ ...base, ADMIN_TOKEN: 'a'.repeat(32), METRICS_TOKEN: ` ${'m'.repeat(64)} ` });
    expect(config.adminToken).toBe('a'.repeat(32));
    expect(config.metricsToken).toBe('m'.repeat(64));
    const open = loadConfig({ ...base, ADMIN_TOKEN: '', METRICS_TOKEN: '   ' });
    expect(open.adminToken).toBeNull();
    expect(open.metricsToken).toBeNull();
  });
});
