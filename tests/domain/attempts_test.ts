import { equal } from "node:assert/strict";
import { AttemptCounter } from "../../domain/mod.ts";

Deno.test("an attempt counter refuses past its limit until the window ends, and refunds", () => {
  const c = new AttemptCounter({ limit: 2, windowMs: 1000, maxKeys: 10 });
  equal(c.take("a", 0), 0);
  equal(c.take("a", 100), 0);
  equal(c.take("a", 200), 800);
  c.refund("a", 300);
  equal(c.take("a", 300), 0);
  equal(c.take("a", 999), 1);
  equal(c.take("a", 1000), 0);
});

Deno.test("a full counter forgets expired keys, then the oldest allowed one, never a refused one", () => {
  const c = new AttemptCounter({ limit: 2, windowMs: 1000, maxKeys: 3 });
  equal(c.take("refused", 0), 0);
  equal(c.take("refused", 0), 0);
  equal(c.take("refused", 0) > 0, true);
  for (let i = 0; i < 100; i++) c.take(`other${i}`, 10 + i);
  equal(c.size, 3);
  equal(c.take("refused", 500) > 0, true, "the flood did not reset it");
  equal(c.take("late", 2000), 0); // every old window expired: forgotten first
  equal(c.size, 1);
});
