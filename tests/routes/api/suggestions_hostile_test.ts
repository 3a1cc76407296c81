/**
 * Uploads built to make the dependency-file readers backtrack (issue #27) no longer hold the
 * server: each worst case is read with the right answer, the reading runs on a worker so a
 * `/healthz` sent while twenty of them run is answered before they are, and a request whose
 * files take longer than the deadline gets a 400 naming `files` while the next one is served.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { createDependencyReader } from "../../../app/mod.ts";
import { isFileProblem, readDependencyFile } from "../../../lib/mod.ts";
import { Busy, InvalidRequest } from "../../../domain/mod.ts";
import { createServer } from "../../../routes/mod.ts";
import { account, key, testContext } from "../../support/accounts.ts";
import { WORST_CASE_FILES, worstCaseBodies } from "../../support/hostile_uploads.ts";

Deno.test("each worst-case file is read to the right answer", () => {
  const answers = WORST_CASE_FILES.map((f) => readDependencyFile(f.name, f.content));
  const problems = answers.map((a) => isFileProblem(a) ? a.problem : null);
  match(problems[0]!, /not a go\.mod/);
  match(problems[1]!, /not a \.terraform\.lock\.hcl/);
  equal(problems[2], null);
  equal(problems[3], null);
  equal(problems[4], null);
  equal(problems[5], null);
  equal(problems[6], null);
  for (const a of answers.slice(2)) {
    if (!isFileProblem(a)) deepStrictEqual([a.packages, a.regions], [[], []]);
  }
  // Lines as real files write them are still read.
  const tf = readDependencyFile(
    "main.tf",
    'terraform {\n  required_providers {\n    aws = {\n      source = "hashicorp/aws"\n    }\n  }\n}\n' +
      'provider "google" {\n  region = "europe-west1"\n}\n',
  );
  ok(!isFileProblem(tf));
  deepStrictEqual(tf.packages.map((p) => p.name).sort(), ["hashicorp/aws", "hashicorp/google"]);
  deepStrictEqual(tf.regions, ["europe-west1"]);
  const py = readDependencyFile(
    "pyproject.toml",
    '[project]\ndependencies = ["stripe>=8", "requests"]\n[[tool.poetry.source]]\nname = "x"\n',
  );
  ok(!isFileProblem(py));
  deepStrictEqual(py.packages.map((p) => p.name), ["stripe", "requests"]);
});

Deno.test("twenty worst-case uploads at once: /healthz is answered before they are", async () => {
  await using ctx = testContext();
  const app = createServer({ app: ctx });
  const who = await account(ctx, "owner@example.com");
  const secret = await key(ctx, who, "r", ["monitors:read"]);
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  const order: string[] = [];
  const uploads = worstCaseBodies(20).map(async (body) => {
    const res = await fetch(`${base}/api/user/monitors/suggestions`, {
      method: "POST",
      headers: { "x-api-key": secret, "content-type": "application/json" },
      body,
    });
    await res.body?.cancel();
    order.push("upload");
    return res.status;
  });
  // Let the uploads reach the server before asking.
  await new Promise((r) => setTimeout(r, 200));
  const health = await fetch(`${base}/healthz`);
  await health.body?.cancel();
  order.push("healthz");
  const statuses = await Promise.all(uploads);
  equal(health.status, 200);
  ok(statuses.every((s) => s === 400 || s === 200), statuses.join(" "));
  ok(order.indexOf("healthz") < order.length - 1, `answered in the order ${order.join(", ")}`);
  ctx.dependencyReader.close();
});

Deno.test("files that take longer than the deadline are a 400 naming files; the next request is read", async () => {
  const reader = createDependencyReader({ deadlineMs: 1 });
  try {
    const slow = reader.read(WORST_CASE_FILES);
    const err = await slow.then(() => null, (e) => e);
    ok(err instanceof InvalidRequest, String(err));
    equal(err.issues[0].parameter, "files");
    match(err.issues[0].message, /took longer than 0\.001 s/);
  } finally {
    reader.close();
  }
  const fast = createDependencyReader();
  try {
    const [one] = await fast.read([{ name: "go.mod", content: "module example.com/x\n" }]);
    ok(one && !isFileProblem(one));
  } finally {
    fast.close();
  }
});

Deno.test("the read deadline starts once the reader has started: a slow start is not the files' fault", async () => {
  const workerUrl = new URL("./_slow_reader_worker.ts?delay=600", import.meta.url);
  const reader = createDependencyReader({ deadlineMs: 300, workerUrl });
  try {
    const [one] = await reader.read([{ name: "go.mod", content: "module example.com/x\n" }]);
    ok(one && !isFileProblem(one), JSON.stringify(one));
  } finally {
    reader.close();
  }
});

Deno.test("a reader that does not start in time answers busy instead of waiting for ever", async () => {
  const never = new URL("./_slow_reader_worker.ts?delay=600000", import.meta.url);
  const reader = createDependencyReader({ startDeadlineMs: 200, workerUrl: never });
  try {
    const err = await reader.read([{ name: "go.mod", content: "module x\n" }]).then(
      () => null,
      (e) => e,
    );
    ok(err instanceof Busy, String(err));
  } finally {
    reader.close();
  }
});
