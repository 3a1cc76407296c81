/**
 * Child process of migrate_test.ts: waits for the moment named in argv (epoch ms), then opens
 * the SQLite file (argv) and migrates it, printing the versions it applied as JSON.
 * @module
 */
import { migrate, openDb } from "./_sqlite.ts";

const [path, at] = Deno.args;
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(at) - Date.now())));
const db = openDb(path!);
console.log(JSON.stringify(migrate(db)));
db.close();
