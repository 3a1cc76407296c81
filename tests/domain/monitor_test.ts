import { deepStrictEqual, equal } from "node:assert/strict";
import { monitorReading, worstTimeline } from "../../domain/monitor.ts";

const H = 3_600_000;
const window = { start: 0, end: 10 * H };

Deno.test("the worst-of timeline changes only where the worst level changes", () => {
  const a = {
    transitions: [
      { at: 2 * H, from: "OPERATIONAL", to: "MAJOR_OUTAGE" } as const,
      {
        at: 4 * H,
        from: "MAJOR_OUTAGE",
        to: "OPERATIONAL",
      } as const,
    ],
    now: "OPERATIONAL" as const,
  };
  const b = {
    transitions: [{ at: 3 * H, from: "OPERATIONAL", to: "DEGRADED_PERFORMANCE" } as const],
    now: "DEGRADED_PERFORMANCE" as const,
  };
  deepStrictEqual(worstTimeline([a, b]), {
    transitions: [
      { at: 2 * H, from: "OPERATIONAL", to: "MAJOR_OUTAGE" },
      { at: 4 * H, from: "MAJOR_OUTAGE", to: "DEGRADED_PERFORMANCE" },
    ],
    now: "DEGRADED_PERFORMANCE",
  });
});

Deno.test("a monitor narrowed to components reads only them: a flip elsewhere leaves it operational", () => {
  const calm = { transitions: [{ at: 0, from: "UNKNOWN", to: "OPERATIONAL" } as const] };
  const service = {
    transitions: [
      { at: 0, from: "UNKNOWN", to: "OPERATIONAL" } as const,
      { at: 5 * H, from: "OPERATIONAL", to: "MAJOR_OUTAGE" } as const,
    ],
    now: "MAJOR_OUTAGE" as const,
  };
  const components = [
    { name: "eu-west-1", ...calm, now: "OPERATIONAL" as const },
    {
      name: "ap-south-1",
      transitions: [
        ...calm.transitions,
        {
          at: 5 * H,
          from: "OPERATIONAL",
          to: "MAJOR_OUTAGE",
        } as const,
      ],
      now: "MAJOR_OUTAGE" as const,
    },
  ];
  const narrowed = monitorReading(service, components, ["EU-West-1"], window);
  equal(narrowed.currentStatus, "OPERATIONAL");
  equal(narrowed.uptime, 100);
  equal(narrowed.state, "ok");
  const whole = monitorReading(service, components, [], window);
  equal(whole.currentStatus, "MAJOR_OUTAGE");
  equal(whole.uptime, 50);
});

Deno.test("what a monitor watches may vanish: it is kept and says so", () => {
  const component = {
    name: "api",
    transitions: [{ at: 0, from: "UNKNOWN", to: "OPERATIONAL" } as const],
    now: "OPERATIONAL" as const,
  };
  const service = { transitions: component.transitions, now: "OPERATIONAL" as const };
  deepStrictEqual(monitorReading(null, [], ["api"], window), {
    currentStatus: "UNKNOWN",
    uptime: null,
    uptimeObservedMs: 0,
    state: "service_missing",
    missingComponents: [],
    timeline: null,
  });
  const partly = monitorReading(service, [component], ["api", "Old region"], window);
  equal(partly.state, "components_missing");
  deepStrictEqual(partly.missingComponents, ["Old region"]);
  equal(partly.currentStatus, "OPERATIONAL");
  const gone = monitorReading(service, [component], ["Old region"], window);
  equal(gone.currentStatus, "UNKNOWN");
  equal(gone.uptime, null);
  equal(gone.uptimeObservedMs, 0);
  // What was observed of the window is said with the uptime.
  equal(partly.uptimeObservedMs, window.end - window.start);
});
