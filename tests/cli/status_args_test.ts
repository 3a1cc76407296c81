/**
 * The `status` client's pure parts: flag parsing, `--fail-on` levels, the check rule and the
 * table layout. The commands against a real server are in status_test.ts.
 */
import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { FailOnSchema, parseGlobal, tokenize } from "../../cli/status/args.ts";
import { fails } from "../../cli/status/commands/check.ts";
import { UsageError } from "../../cli/status/exit.ts";
import { colourEnabled, duration, renderTable } from "../../cli/status/table.ts";

Deno.test("flags take values with a space or '=', and '--' ends them", () => {
  const t = tokenize(["github", "--fail-on", "major", "--json", "--api=http://x:1", "--", "-a"], {
    "fail-on": "string",
    json: "boolean",
    api: "string",
  });
  deepStrictEqual(t.positionals, ["github", "-a"]);
  deepStrictEqual(t.flags, { "fail-on": "major", json: true, api: "http://x:1" });
});

Deno.test("an unknown flag or a missing value is a usage error naming the flag", () => {
  throws(
    () => tokenize(["--verbose"], { json: "boolean" }),
    (e) => e instanceof UsageError && e.message === "unknown flag --verbose",
  );
  throws(
    () => tokenize(["--days"], { days: "string" }),
    (e) => e instanceof UsageError && /"--days" needs a value/.test(e.message),
  );
  throws(
    () => tokenize(["--json=yes"], { json: "boolean" }),
    (e) => e instanceof UsageError && /takes no value/.test(e.message),
  );
});

Deno.test("a misspelt flag is named and the right one suggested", () => {
  const spec = { json: "boolean", "fail-on": "string", "allow-unknown": "boolean" } as const;
  for (
    const [typed, meant] of [
      ["--jsno", "--json"],
      ["--fial-on=major", "--fail-on"],
      ["--allow-unkown", "--allow-unknown"],
      ["--JSON", "--json"],
    ]
  ) {
    const shown = typed.split("=")[0];
    throws(
      () => tokenize(["github", typed!], spec),
      (e) =>
        e instanceof UsageError &&
        e.message === `unknown flag ${shown}; did you mean ${meant}?`,
      typed,
    );
  }
});

Deno.test("--fail-on takes the short names and the full enum names, never OPERATIONAL", () => {
  const cases: [string, string][] = [
    ["maintenance", "UNDER_MAINTENANCE"],
    ["degraded", "DEGRADED_PERFORMANCE"],
    ["partial", "PARTIAL_OUTAGE"],
    ["major", "MAJOR_OUTAGE"],
    ["MAJOR_OUTAGE", "MAJOR_OUTAGE"],
    ["partial-outage", "PARTIAL_OUTAGE"],
    ["Degraded_Performance", "DEGRADED_PERFORMANCE"],
  ];
  for (const [input, level] of cases) equal(FailOnSchema.parse(input), level);
  equal(FailOnSchema.safeParse("operational").success, false);
  equal(FailOnSchema.safeParse("UNKNOWN").success, false);
  equal(FailOnSchema.safeParse("bad").success, false);
});

Deno.test("check fails at the level or worse; UNKNOWN fails unless allowed", () => {
  equal(fails("DEGRADED_PERFORMANCE", "DEGRADED_PERFORMANCE", false), true);
  equal(fails("MAJOR_OUTAGE", "DEGRADED_PERFORMANCE", false), true);
  equal(fails("UNDER_MAINTENANCE", "DEGRADED_PERFORMANCE", false), false);
  equal(fails("OPERATIONAL", "UNDER_MAINTENANCE", false), false);
  equal(fails("UNKNOWN", "MAJOR_OUTAGE", false), true);
  equal(fails("UNKNOWN", "MAJOR_OUTAGE", true), false);
});

Deno.test("the API address comes from --api, else STATUS_API_URL, else localhost:8080", () => {
  equal(parseGlobal({}, {}).apiUrl, "http://localhost:8080");
  equal(parseGlobal({}, { STATUS_API_URL: "https://s.example/" }).apiUrl, "https://s.example");
  equal(parseGlobal({ api: "http://a:1" }, { STATUS_API_URL: "http://b:2" }).apiUrl, "http://a:1");
  equal(parseGlobal({}, { STATUS_API_KEY: "sd_live_x" }).apiKey, "sd_live_x");
  throws(
    () => parseGlobal({}, { STATUS_API_URL: "nope" }),
    (e) => e instanceof UsageError && /STATUS_API_URL/.test(e.message),
  );
});

Deno.test("colour is on only on a terminal without NO_COLOR or --no-color", () => {
  equal(colourEnabled(true, {}, false), true);
  equal(colourEnabled(false, {}, false), false);
  equal(colourEnabled(true, { NO_COLOR: "1" }, false), false);
  equal(colourEnabled(true, { NO_COLOR: "" }, false), true);
  equal(colourEnabled(true, {}, true), false);
});

Deno.test("table columns align on the text, whether coloured or not", () => {
  const rows = [["github", { text: "MAJOR_OUTAGE", colour: "red" as const }, "x"], [
    "x",
    "OK",
    "y",
  ]];
  equal(
    renderTable(["SERVICE", "STATUS", "N"], rows, false),
    "SERVICE  STATUS        N\ngithub   MAJOR_OUTAGE  x\nx        OK            y",
  );
  const coloured = renderTable(["SERVICE", "STATUS", "N"], rows, true);
  equal(
    coloured.replaceAll(new RegExp(String.fromCharCode(27) + "\\[[0-9;]*m", "g"), ""),
    renderTable(["SERVICE", "STATUS", "N"], rows, false),
  );
  equal(coloured.includes("\x1b[31mMAJOR_OUTAGE\x1b[0m"), true);
});

Deno.test("durations read as minutes, hours or days", () => {
  equal(duration(null), "-");
  equal(duration(42.4), "42m");
  equal(duration(185), "3h 05m");
  equal(duration(3000), "2d 2h");
});
