import { equal, ok } from "node:assert/strict";
import { createLogger, MAX_FIELD_CHARS } from "../log.ts";

Deno.test("a log line bounds every field a vendor controls and still redacts secrets", () => {
  const lines: string[] = [];
  const log = createLogger("debug", (l) => lines.push(l));
  const huge = "v".repeat(1_000_000);
  log.warn("unmapped platform value", {
    value: huge,
    nested: { items: Array.from({ length: 100_000 }, (_, i) => i) },
    count: 3,
    token: "sd_live_secret",
  });
  equal(lines.length, 1);
  ok(lines[0]!.length < 3 * MAX_FIELD_CHARS, `${lines[0]!.length} characters`);
  const parsed = JSON.parse(lines[0]!);
  equal(parsed.value, `${"v".repeat(MAX_FIELD_CHARS)}… (1000000 characters)`);
  ok(String(parsed.nested).startsWith('{"items":[0,1,2'));
  equal(parsed.count, 3);
  equal(parsed.token, "[redacted]");
});
