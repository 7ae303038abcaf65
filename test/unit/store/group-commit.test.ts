import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../src/store/sqlite/group-commit.js';

class Mapped extends Error {
  constructor(readonly original: unknown) {
    super('mapped');
  }
}

describe('GroupCommit (SQLite writes of one event-loop turn in one transaction)', () => {
  let dir: string;
  let db: Database.Database;
  let writes: GroupCommit;
  let insert: Database.Statement;
  let insertTwo: Database.Transaction<(a: string, b: string) => void>;
  const rows = (): string[] => (db.prepare('SELECT v FROM t ORDER BY rowid').all() as Array<{ v: string }>).map((r) => r.v);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pith-gc-'));
    db = new Database(join(dir, 'x.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v TEXT PRIMARY KEY)');
    writes = new GroupCommit(db, (err) => new Mapped(err));
    insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    insertTwo = db.transaction((a: string, b: string) => {
      insert.run(a);
      insert.run(b);
    });
  });
  afterEach(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the writes of one turn inside one transaction, in submission order', async () => {
    const seen: Array<{ inTx: boolean; before: number }> = [];
    const submitted = ['a', 'b', 'c'].map((v) =>
      writes.submit(() => {
        seen.push({ inTx: db.inTransaction, before: rows().length });
        return insert.run(v).changes;
      }),
    );
    expect(rows()).toEqual([]); // nothing runs before the turn ends
    expect(await Promise.all(submitted)).toEqual([1, 1, 1]);
    expect(seen).toEqual([
      { inTx: true, before: 0 },
      { inTx: true, before: 1 },
      { inTx: true, before: 2 },
    ]);
    expect(rows()).toEqual(['a', 'b', 'c']);
    expect(db.inTransaction).toBe(false);
  });

  it('a failing write rolls back only itself; the others of its batch commit', async () => {
    insert.run('taken');
    const results = await Promise.allSettled([
      writes.submit(() => insertTwo('x1', 'x2')),
      writes.submit(() => insertTwo('y1', 'taken')), // second insert violates the key
      writes.submit(() => insertTwo('z1', 'z2')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const failure = (results[1] as PromiseRejectedResult).reason;
    expect(failure).toBeInstanceOf(Mapped);
    expect(String((failure as Mapped).original)).toMatch(/UNIQUE/);
    expect(rows()).toEqual(['taken', 'x1', 'x2', 'z1', 'z2']); // y1 rolled back with its savepoint
  });

  it('when the batch cannot commit, every caller of that batch fails and nothing is written', async () => {
    const other = new Database(join(dir, 'x.sqlite'));
    try {
      other.pragma('busy_timeout = 0');
      db.pragma('busy_timeout = 0');
      other.prepare('BEGIN IMMEDIATE').run(); // another process holds the write lock
      const results = await Promise.allSettled([writes.submit(() => insert.run('p')), writes.submit(() => insert.run('q'))]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      for (const r of results) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(Mapped);
      other.prepare('ROLLBACK').run();
    } finally {
      other.close();
    }
    expect(rows()).toEqual([]);
    await writes.submit(() => insert.run('later')); // the next turn commits normally
    expect(rows()).toEqual(['later']);
  });

  it('when SQLite rolls the whole transaction back, no write of the batch stands and none runs after', async () => {
    let ranAfter = false;
    const results = await Promise.allSettled([
      writes.submit(() => insert.run('a')),
      writes.submit(() => {
        db.prepare('ROLLBACK').run(); // what SQLite does by itself on SQLITE_FULL or an I/O error
        throw new Error('disk full');
      }),
      writes.submit(() => {
        ranAfter = true;
        return insert.run('c');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(ranAfter).toBe(false);
    expect(rows()).toEqual([]);
    expect(db.inTransaction).toBe(false);
    await writes.submit(() => insert.run('next'));
    expect(rows()).toEqual(['next']);
  });

  it('flush() commits queued writes at once (used before the database closes)', async () => {
    const pending = writes.submit(() => insert.run('queued'));
    writes.flush();
    db.close();
    await expect(pending).resolves.toMatchObject({ changes: 1 });
    const reopened = new Database(join(dir, 'x.sqlite'));
    try {
      expect(reopened.prepare('SELECT v FROM t').all()).toEqual([{ v: 'queued' }]);
    } finally {
      reopened.close();
    }
  });

  it('writes submitted after the database closed fail with the mapped error', async () => {
    db.close();
    await expect(writes.submit(() => insert.run('late'))).rejects.toBeInstanceOf(Mapped);
  });
});
