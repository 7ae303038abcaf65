import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Names that resolve to private addresses through the real resolver, in a network
 * namespace that has nothing but loopback: even a bug could not send a packet off this
 * machine. Needs `unshare -n -m` (root or user namespaces); skips with a message otherwise.
 */
const probe = spawnSync('unshare', ['-n', '-m', 'sh', '-c', 'ip link set lo up'], { encoding: 'utf8' });
const available = probe.status === 0;
if (!available) {
  console.warn(`[netns] skipping network-namespace SSRF test: unshare -n -m unavailable (${probe.error?.message ?? probe.stderr.trim()})`);
}

describe.skipIf(!available)('SSRF in a loopback-only network namespace (real resolver, bind-mounted hosts)', () => {
  it('refuses names that resolve to private addresses, allows only the listed loopback port', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pith-netns-'));
    try {
      const hosts = join(dir, 'hosts');
      writeFileSync(
        hosts,
        [
          '127.0.0.1 localhost',
          '::1 localhost ip6-localhost',
          '10.0.0.1 private.test',
          '169.254.169.254 metadata.test',
          '100.64.0.1 cgnat.test',
          'fd00::1 ula.test',
          '::ffff:10.0.0.2 mapped.test',
          '127.0.0.1 loop.test',
          '',
        ].join('\n'),
      );
      const child = fileURLToPath(new URL('./netns-child.ts', import.meta.url));
      const run = spawnSync(
        'unshare',
        [
          '-n',
          '-m',
          'sh',
          '-c',
          'ip link set lo up && mount --bind "$1" /etc/hosts && exec "$2" --import tsx "$3"',
          'sh',
          hosts,
          process.execPath,
          child,
        ],
        { encoding: 'utf8', timeout: 45_000, cwd: fileURLToPath(new URL('../../../', import.meta.url)) },
      );
      expect(run.status, run.stderr).toBe(0);
      const results = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
      expect(results).toEqual({
        private: 'INVALID_URL',
        metadata: 'INVALID_URL',
        cgnat: 'INVALID_URL',
        ula: 'INVALID_URL',
        mapped: 'INVALID_URL',
        loopbackAllowedPort: 200,
        loopbackOtherPort: 'INVALID_URL',
        redirectToPrivate: 'INVALID_URL',
        nxdomain: 'URL_NOT_FOUND',
      });
      // the namespace's hosts file was private to the child
      expect(readFileSync('/etc/hosts', 'utf8')).not.toContain('private.test');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
