/**
 * `statusd` (main.ts) as a self-hoster starts it: a bad `STATUSD_CATALOG` file, or a store that
 * cannot be opened, stops it with one line naming the variable and the problem, exit 2, no
 * stack trace, and no database created.
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;

async function start(env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    env: { ...env, NO_COLOR: "1", PORT: "0", STATUSD_POLL: "off" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("a bad STATUSD_CATALOG file ends with one line naming the variable and the problem (exit 2)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const write = (name: string, text: string) => {
      Deno.writeTextFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const cases: [string, RegExp][] = [
      [join(dir, "missing.json"), /Cannot read the file: No such file or directory/],
      [write("text.json", "name,slug\nAcme,acme\n"), /Not valid JSON/],
      [write("object.json", '{"vendors": []}'), /Expected a JSON array of vendor entries/],
      [
        write("entry.json", '[{"name": "Acme", "slug": "Acme Inc", "statusPageUrl": "x"}]'),
        /entry 0 \("Acme Inc"\): slug: .*statusPageUrl: /,
      ],
    ];
    for (const [path, problem] of cases) {
      const db = join(dir, "statusd.db");
      const run = await start({ STATUSD_CATALOG: path, STATUSD_DB: db });
      equal(run.code, 2, run.stderr);
      const lines = run.stderr.trimEnd().split("\n");
      equal(lines.length, 1, `one line: ${run.stderr}`);
      match(lines[0]!, new RegExp(`^Cannot use STATUSD_CATALOG: Cannot load catalog "${path}": `));
      match(lines[0]!, problem);
      ok(!/\bat .*\.ts:\d+/.test(run.stderr), "no stack trace");
      ok(!(await Deno.stat(db).then(() => true, () => false)), "no database was created");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a store that cannot be opened ends with one line naming the variable (exit 2)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // A SQLite path under a regular file: the folder cannot be made.
    Deno.writeTextFileSync(join(dir, "file"), "");
    const sqlite = await start({ STATUSD_DB: join(dir, "file", "statusd.db") });
    equal(sqlite.code, 2, sqlite.stderr);
    const line = sqlite.stderr.trimEnd();
    equal(line.split("\n").length, 1, line);
    match(line, /^Cannot open the SQLite database in STATUSD_DB \(.*file\/statusd\.db\): /);
    ok(!/\bat .*\.ts:\d+/.test(sqlite.stderr), "no stack trace");

    const postgres = await start({
      STATUSD_DATABASE_URL: "postgres://statusd:s3cret@db.invalid:5432/statusd",
      STATUSD_DB: join(dir, "statusd.db"),
    });
    equal(postgres.code, 2, postgres.stderr);
    const pg = postgres.stderr.trimEnd();
    equal(pg.split("\n").length, 1, pg);
    match(pg, /^Cannot use STATUSD_DATABASE_URL \(db\.invalid:5432\): /);
    ok(!pg.includes("s3cret"), "the password is never shown");
    ok(!(await Deno.stat(join(dir, "statusd.db")).then(() => true, () => false)), "no SQLite file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a first start says in one line on stdout (its log stays JSON on stderr) where to open statusd and to create the operator's account", async () => {
  const dir = await Deno.makeTempDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    env: {
      NO_COLOR: "1",
      PORT: "0",
      HOST: "127.0.0.1",
      STATUSD_POLL: "off",
      STATUSD_DB: join(dir, "statusd.db"),
      STATUSD_PUBLIC_URL: "http://status.example.test",
    },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    // The log (stderr) stays JSON lines; the person's line is on stdout.
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("sign-up")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    const lines = text.trimEnd().split("\n");
    const human = lines.find((l) => !l.startsWith("{"));
    match(
      human ?? "",
      /^statusd is up: open http:\/\/status\.example\.test\/sign-up and create the first account — it is this statusd's operator's/,
    );
    equal(lines.length, 1, "one line");
    reader.releaseLock();
  } finally {
    child.kill("SIGTERM");
    await child.stdout.cancel().catch(() => {});
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});
