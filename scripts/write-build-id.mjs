// Writes dist/build-id.txt: part of the engine version, so every build (deploy) gets a fresh cache.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';

let id;
try {
  const sha = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();
  id = dirty ? `${sha}.dirty.${randomBytes(3).toString('hex')}` : sha;
} catch {
  id = `b${Date.now().toString(36)}`;
}
mkdirSync('dist', { recursive: true });
writeFileSync('dist/build-id.txt', `${id}\n`);
