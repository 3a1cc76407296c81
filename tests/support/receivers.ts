/**
 * Loopback receivers that behave like the platforms alerts go to (issue #13): each checks a
 * payload against the platform's documented required fields and limits and answers 400 with the
 * reason when it breaks one, as the real ones do; each can be told to answer 429 (with
 * Retry-After), 500 or 404, or to hang, for its next requests.
 *
 * Limits: Slack Block Kit (≤ 50 blocks, header plain_text ≤ 150, section text ≤ 3,000, context
 * ≤ 10 elements); Discord execute-webhook (content or embeds, ≤ 10 embeds, title ≤ 256,
 * description ≤ 4,096, ≤ 25 fields of name ≤ 256 / value ≤ 1,024, footer ≤ 2,048, ≤ 6,000 in
 * all); Teams workflow (a `message` with an Adaptive Card attachment); PagerDuty Events v2
 * (`routing_key` 32 characters, `event_action` trigger|acknowledge|resolve, `dedup_key` ≤ 255,
 * for a trigger `payload.summary` ≤ 1,024, `payload.source`, `payload.severity` critical|error|
 * warning|info).
 */

/** What a receiver does with its next request. */
export type Behaviour =
  | { readonly answer: 429; readonly retryAfter: number }
  | { readonly answer: 500 | 404 | 503 }
  | { readonly answer: "hang" };

/** One received request. */
export interface Received {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly json: unknown;
  /** The status answered. */
  readonly status: number;
}

/** A running receiver. */
export interface Receivers {
  readonly origin: string;
  /** Requests received on `path` (`/slack`, `/discord`, `/teams`, `/pagerduty`, `/webhook`, `/hang`). */
  on(path: string): Received[];
  /** The next answers on `path`, in order (then normal again). */
  script(path: string, ...next: Behaviour[]): void;
  /** Resolves hanging requests and stops. */
  close(): Promise<void>;
}

type Check = (body: Record<string, unknown>) => string | null;
// Payloads are read field by field as the platforms' own validators do.
// deno-lint-ignore no-explicit-any
type Any = any;

const len = (v: unknown) => (typeof v === "string" ? v.length : 0);

const CHECKS: Record<string, Check> = {
  "/slack": (b) => {
    if (typeof b.text !== "string" && !Array.isArray(b.blocks)) return "missing_text_or_blocks";
    const blocks = (b.blocks ?? []) as Record<string, Any>[];
    if (blocks.length > 50) return "invalid_blocks: more than 50";
    for (const block of blocks) {
      if (block.type === "header") {
        if (block.text?.type !== "plain_text") return "invalid_blocks: header must be plain_text";
        if (len(block.text.text) > 150) return "invalid_blocks: header longer than 150";
      } else if (block.type === "section") {
        if (len(block.text?.text) > 3000) return "invalid_blocks: section longer than 3000";
      } else if (block.type === "context") {
        if (!Array.isArray(block.elements) || block.elements.length > 10) {
          return "invalid_blocks: context needs 1 to 10 elements";
        }
      } else return `invalid_blocks: unknown type ${block.type}`;
    }
    return null;
  },
  "/discord": (b) => {
    const embeds = (b.embeds ?? []) as Record<string, Any>[];
    if (!b.content && embeds.length === 0) return "Cannot send an empty message";
    if (embeds.length > 10) return "too many embeds";
    let total = 0;
    for (const e of embeds) {
      if (len(e.title) > 256) return "embed title longer than 256";
      if (len(e.description) > 4096) return "embed description longer than 4096";
      const fields = (e.fields ?? []) as Record<string, unknown>[];
      if (fields.length > 25) return "more than 25 fields";
      for (const f of fields) {
        if (len(f.name) > 256 || len(f.value) > 1024) return "field too long";
        if (!f.name || !f.value) return "field name and value are required";
        total += len(f.name) + len(f.value);
      }
      if (len(e.footer?.text) > 2048) return "footer longer than 2048";
      total += len(e.title) + len(e.description) + len(e.footer?.text);
    }
    if (total > 6000) return "embeds longer than 6000 in all";
    return null;
  },
  "/teams": (b) => {
    if (b.type !== "message") return "type must be message";
    const a = (b.attachments as Record<string, Any>[] | undefined)?.[0];
    if (a?.contentType !== "application/vnd.microsoft.card.adaptive") return "no adaptive card";
    if (a.content?.type !== "AdaptiveCard" || typeof a.content?.version !== "string") {
      return "content must be an AdaptiveCard with a version";
    }
    return null;
  },
  "/pagerduty": (b) => {
    if (typeof b.routing_key !== "string" || b.routing_key.length !== 32) {
      return "routing_key must be 32 characters";
    }
    if (!["trigger", "acknowledge", "resolve"].includes(String(b.event_action))) {
      return "event_action must be trigger, acknowledge or resolve";
    }
    if (len(b.dedup_key) > 255) return "dedup_key longer than 255";
    if (b.event_action !== "trigger") return b.dedup_key ? null : "dedup_key is required";
    const p = b.payload as Record<string, unknown> | undefined;
    if (!p || typeof p.summary !== "string" || p.summary.length > 1024) {
      return "payload.summary is required, at most 1024 characters";
    }
    if (typeof p.source !== "string" || p.source === "") return "payload.source is required";
    if (!["critical", "error", "warning", "info"].includes(String(p.severity))) {
      return "payload.severity must be critical, error, warning or info";
    }
    return null;
  },
};

/** Starts the receivers on a free loopback port. */
export function startReceivers(): Receivers {
  const received = new Map<string, Received[]>();
  const scripts = new Map<string, Behaviour[]>();
  const hanging: (() => void)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.text();
    let json: unknown = null;
    try {
      json = JSON.parse(body);
    } catch { /* recorded as text */ }
    const headers = Object.fromEntries(req.headers);
    const next = scripts.get(path)?.shift();
    const record = (status: number) =>
      received.set(path, [...received.get(path) ?? [], { path, headers, body, json, status }]);
    if (next?.answer === "hang") {
      record(0);
      await new Promise<void>((r) => hanging.push(r));
      return new Response("late", { status: 200 });
    }
    if (next) {
      record(next.answer);
      return new Response(`scripted ${next.answer}`, {
        status: next.answer,
        headers: next.answer === 429 ? { "retry-after": String(next.retryAfter) } : {},
      });
    }
    const check = CHECKS[path];
    const problem = check
      ? (json && typeof json === "object" ? check(json as Record<string, unknown>) : "invalid JSON")
      : null;
    if (problem) {
      record(400);
      return new Response(problem, { status: 400 });
    }
    if (path === "/pagerduty") {
      record(202);
      return Response.json({ status: "success", message: "Event processed" }, { status: 202 });
    }
    record(200);
    return new Response("ok");
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    on: (path) => received.get(path) ?? [],
    script: (path, ...next) => scripts.set(path, [...scripts.get(path) ?? [], ...next]),
    async close() {
      for (const r of hanging) r();
      await server.shutdown();
    },
  };
}
