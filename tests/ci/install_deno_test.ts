/**
 * `.ci/run`'s first step in a checkout where `deno task start` already ran: Deno's
 * `node_modules/` sits at the root. Installing Deno into `.tools/` must leave the root alone
 * (no package.json written there, none of Deno's packages pruned). Runs the real step, a real
 * `npm install --prefix` (served from npm's cache after the first time), in a temporary copy.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";

const SCRIPT = new URL("../../.ci/install_deno.sh", import.meta.url).pathname;

function listing(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

Deno.test("installing Deno for CI after `deno task start` leaves the checkout's root untouched", async () => {
  const root = await Deno.makeTempDir({ prefix: "statusd-ci-" });
  try {
    Deno.mkdirSync(join(root, ".ci"));
    Deno.copyFileSync(SCRIPT, join(root, ".ci", "install_deno.sh"));
    Deno.writeTextFileSync(join(root, "deno.json"), '{"nodeModulesDir": "auto"}\n');
    // What `deno install` leaves at the root: packages and Deno's own store.
    for (const pkg of ["hono", "zod"]) {
      Deno.mkdirSync(join(root, "node_modules", pkg), { recursive: true });
      Deno.writeTextFileSync(
        join(root, "node_modules", pkg, "package.json"),
        JSON.stringify({ name: pkg, version: "1.0.0" }),
      );
    }
    Deno.mkdirSync(join(root, "node_modules", ".deno"));
    Deno.writeTextFileSync(join(root, "node_modules", ".deno", ".setup-cache.bin"), "x");
    const rootBefore = listing(root);
    const modulesBefore = listing(join(root, "node_modules"));

    const run = async () =>
      await new Deno.Command("bash", {
        args: [join(root, ".ci", "install_deno.sh")],
        cwd: root,
        stdout: "piped",
        stderr: "piped",
      }).output();
    const first = await run();
    equal(first.code, 0, new TextDecoder().decode(first.stderr));

    deepStrictEqual(listing(root), [...rootBefore, ".tools"].sort(), "only .tools/ was added");
    deepStrictEqual(listing(join(root, "node_modules")), modulesBefore, "Deno's packages stay");
    ok(Deno.statSync(join(root, "node_modules", "hono", "package.json")).isFile);
    const deno = join(root, ".tools", "node_modules", ".bin", "deno");
    const version = await new Deno.Command(deno, { args: ["--version"], stdout: "piped" }).output();
    ok(new TextDecoder().decode(version.stdout).startsWith("deno 2.9.6"));

    // Run again: already installed, nothing changes.
    const second = await run();
    equal(second.code, 0);
    deepStrictEqual(listing(root), [...rootBefore, ".tools"].sort());
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
