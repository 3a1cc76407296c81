/** Group commit of poll records (store/sqlite/write_batch.ts). */
import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import { BATCH_MAX, createWriteBatch, QUIET_MAX } from "../../../store/sqlite/write_batch.ts";
import { openDb } from "./_sqlite.ts";

function table() {
  const db = openDb(":memory:");
  db.exec("CREATE TABLE t (x INTEGER UNIQUE)");
  const insert = (x: number) => () => db.prepare("INSERT INTO t (x) VALUES (?)").run(x).changes;
  const rows = () => db.prepare("SELECT x FROM t ORDER BY x").all().map((r) => r.x);
  return { db, insert, rows };
}

Deno.test("writes queued together commit together; one that throws is rolled back alone", async () => {
  const { db, insert, rows } = table();
  const batch = createWriteBatch(db);
  const seen: string[] = [];
  const after = (name: string) => () => {
    equal(db.isTransaction, false, "after runs once committed");
    seen.push(name);
  };
  const one = batch.add(insert(1), after("one"));
  const dup = batch.add(() => {
    insert(3)();
    return insert(1)(); // UNIQUE: this write (and its insert of 3) is undone
  }, after("dup"));
  const two = batch.add(insert(2), after("two"));
  equal(await one, 1);
  await rejects(dup, /UNIQUE/);
  equal(await two, 1);
  deepStrictEqual(rows(), [1, 2]);
  deepStrictEqual(seen, ["one", "two"]);
  db.close();
});

Deno.test("a full batch commits at once; close flushes what is queued", async () => {
  const { db, insert, rows } = table();
  const batch = createWriteBatch(db);
  const writes = Array.from({ length: BATCH_MAX }, (_, i) => batch.add(insert(i)));
  equal(rows().length, BATCH_MAX, "committed before any timer");
  await Promise.all(writes);
  const late = batch.add(insert(-1));
  ok(!rows().includes(-1));
  batch.flush();
  ok(rows().includes(-1));
  await late;
  db.close();
});

Deno.test("quiet writes wait for a longer window unless a hurried write takes them along", async () => {
  const quietOnly = table();
  const hurried = table();
  const quietBatch = createWriteBatch(quietOnly.db);
  const hurriedBatch = createWriteBatch(hurried.db);
  const quiet = quietBatch.add(quietOnly.insert(1), undefined, true);
  await hurriedBatch.add(hurried.insert(1));
  deepStrictEqual(hurried.rows(), [1]);
  deepStrictEqual(quietOnly.rows(), [], "a quiet write is still queued when a hurried one commits");
  await quiet;
  deepStrictEqual(quietOnly.rows(), [1]);

  const along = hurriedBatch.add(hurried.insert(2), undefined, true);
  let alongDone = false;
  along.then(() => alongDone = true);
  await hurriedBatch.add(hurried.insert(3));
  await Promise.resolve();
  ok(alongDone, "the quiet write committed with the hurried one");
  deepStrictEqual(hurried.rows(), [1, 2, 3]);
  quietOnly.db.close();
  hurried.db.close();
});

Deno.test("quiet writes stop waiting the long window once many are queued", async () => {
  const many = table();
  const one = table();
  const manyBatch = createWriteBatch(many.db);
  const oneBatch = createWriteBatch(one.db);
  const quiet = oneBatch.add(one.insert(0), undefined, true);
  const writes = Array.from(
    { length: QUIET_MAX },
    (_, i) => manyBatch.add(many.insert(i), undefined, true),
  );
  await Promise.all(writes);
  equal(many.rows().length, QUIET_MAX);
  deepStrictEqual(one.rows(), [], "a lone quiet write still waits the long window");
  await quiet;
  many.db.close();
  one.db.close();
});
