/**
 * Reads and validates the environment once (DESIGN §7). No other module reads `Deno.env`
 * (except the `status` CLI, which reads its own variables and the proxy ones `fetch` obeys, and
 * ingest/pinned_client.ts, which hides the proxy variables from the `fetch` clients it makes).
 * @module
 */
import { z } from "zod";
import {
  type AddressAllowance,
  firstSet,
  NO_PROXY_VARIABLES,
  type NoProxyEntry,
  parseAllowance,
  parseIpRange,
  parseNoProxy,
  parseProxyUrl,
  PROXY_URL_VARIABLES,
  type ProxyServer,
  type ProxySettings,
  proxyVariablesOf,
} from "./lib/mod.ts";
import { type Plan, PLANS } from "./domain/mod.ts";

/** The process environment, read once at start (the one place the server reads `Deno.env`). */
export function processEnvironment(): Record<string, string> {
  return Deno.env.toObject();
}

/** A bad configuration value; the message names every bad variable and its value. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

const int = (min: number, max: number) =>
  z.string().trim().regex(/^\d+$/, `expected an integer from ${min} to ${max}`).transform(Number)
    .pipe(
      z.number().int().min(min, `expected an integer from ${min} to ${max}`).max(
        max,
        `expected an integer from ${min} to ${max}`,
      ),
    );

/** A comma list of IP addresses and CIDR ranges (`none` or empty: none). */
const addressList = z.string().trim().transform((text, ctx) => {
  if (text === "none") return [];
  const items = text.split(",").map((s) => s.trim()).filter((s) => s !== "");
  for (const item of items) {
    if (!parseIpRange(item)) {
      ctx.addIssue({
        code: "custom",
        message: `"${item}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1)`,
      });
    }
  }
  return items;
});

/** A proxy variable's URL (`parseProxyUrl`). */
const proxyUrl = z.string().transform((value, ctx): ProxyServer => {
  const parsed = parseProxyUrl(value);
  if (!("error" in parsed)) return parsed;
  ctx.issues.push({ code: "custom", input: value, message: parsed.error });
  return z.NEVER;
});

/** `NO_PROXY` (`parseNoProxy`). */
const noProxyList = z.string().transform((value, ctx): readonly NoProxyEntry[] => {
  const parsed = parseNoProxy(value);
  if (parsed.bad.length === 0) return parsed.entries;
  ctx.issues.push({
    code: "custom",
    input: value,
    message:
      `expected host names, IP addresses or CIDRs, each with an optional :port, or * (cannot read ${
        parsed.bad.map((b) => JSON.stringify(b)).join(", ")
      })`,
  });
  return z.NEVER;
});

/** Parses a PostgreSQL connection URL; null when it is not one. */
function postgresUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return (url.protocol === "postgres:" || url.protocol === "postgresql:") && url.hostname !== ""
      ? url
      : null;
  } catch {
    return null;
  }
}

/**
 * A value as an error message may show it: a database URL without its password (a URL that
 * cannot be read is not shown at all, since it may hold one).
 */
function shown(name: string, value: string | undefined): string {
  if (
    value !== undefined &&
    (name === "STATUSD_SMTP_URL" || (PROXY_URL_VARIABLES as readonly string[]).includes(name))
  ) {
    return "(not shown: it may hold a password)";
  }
  if (name !== "STATUSD_DATABASE_URL" || value === undefined) return JSON.stringify(value);
  const url = postgresUrl(value.trim());
  if (url === null) return "(not shown: it may hold a password)";
  if (url.password) url.password = "***";
  return JSON.stringify(url.href);
}

const schema = z.object({
  PORT: int(0, 65535).default(8080),
  HOST: z.string().min(1).default("0.0.0.0"),
  STATUSD_DB: z.string().min(1).default("./data/statusd.db"),
  STATUSD_DATABASE_URL: z.string().trim().refine((v) => postgresUrl(v) !== null, {
    error: "expected a PostgreSQL URL like postgres://user:password@host:5432/statusd",
  }).optional(),
  STATUSD_INSTANCE_ID: z.string().trim().regex(/^[A-Za-z0-9._:-]{1,100}$/, {
    error: "expected up to 100 letters, digits, dots, dashes, underscores or colons",
  }).optional(),
  STATUSD_PUBLIC_URL: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }).optional(),
  STATUSD_CATALOG: z.string().min(1).optional(),
  STATUSD_POLL_STABLE_SECONDS: int(1, 86400).default(300),
  STATUSD_POLL_MOVING_SECONDS: int(1, 86400).default(60),
  STATUSD_POLL_PULSE_SECONDS: int(0, 86400).default(60),
  STATUSD_POLL_CONCURRENCY: int(1, 1024).default(32),
  STATUSD_POLL: z.enum(["on", "off"], { error: 'expected "on" or "off"' }).default("on"),
  STATUSD_POLL_TIMEOUT_MS: int(100, 120000).default(10000),
  STATUSD_PROBES: z.enum(["monitored", "all", "off"], {
    error: 'expected "monitored", "all" or "off"',
  }).default("monitored"),
  STATUSD_PROBE_SECONDS: int(1, 3600).default(60),
  STATUSD_ALLOW_PRIVATE_VENDORS: z.string().transform((value, ctx): AddressAllowance => {
    const parsed = parseAllowance(value);
    if (parsed.ok) return parsed.allowance;
    ctx.issues.push({
      code: "custom",
      input: value,
      message: `expected "off", "on" or a comma list of IP addresses and CIDRs (cannot read ${
        parsed.bad.map((b) => JSON.stringify(b)).join(", ") || "an empty list"
      })`,
    });
    return z.NEVER;
  }).prefault("off"),
  STATUSD_ALLOW_PRIVATE_DESTINATIONS: z.string().transform((value, ctx): AddressAllowance => {
    const parsed = parseAllowance(value);
    if (parsed.ok) return parsed.allowance;
    ctx.issues.push({
      code: "custom",
      input: value,
      message: `expected "off", "on" or a comma list of IP addresses and CIDRs (cannot read ${
        parsed.bad.map((b) => JSON.stringify(b)).join(", ") || "an empty list"
      })`,
    });
    return z.NEVER;
  }).prefault("off"),
  STATUSD_SMTP_URL: z.url({
    protocol: /^smtps?$/,
    error: "expected an SMTP URL like smtp://user:password@mail.example.com:587 or smtps://…:465",
  }).optional(),
  STATUSD_MAIL_FROM: z.string().trim().max(320).regex(/^(?:[^<>\r\n]*<)?[^\s@<>]+@[^\s@<>]+>?$/, {
    error: 'expected an address like statusd@example.com or "statusd <statusd@example.com>"',
  }).optional(),
  STATUSD_TRUSTED_PROXIES: addressList.default([]),
  STATUSD_MAX_MONITORS: int(1, 1_000_000).default(10_000),
  STATUSD_SIGNUP_PLAN: z.enum(PLANS, { error: `expected one of ${PLANS.join(", ")}` })
    .default("FREE"),
  HTTPS_PROXY: proxyUrl.optional(),
  https_proxy: proxyUrl.optional(),
  HTTP_PROXY: proxyUrl.optional(),
  http_proxy: proxyUrl.optional(),
  ALL_PROXY: proxyUrl.optional(),
  all_proxy: proxyUrl.optional(),
  NO_PROXY: noProxyList.optional(),
  no_proxy: noProxyList.optional(),
  STATUSD_LOG: z.enum(["debug", "info", "warn", "error"], {
    error: "expected debug, info, warn or error",
  }).default("info"),
});

/** Poller settings (a slice passed to the poller). */
export interface PollConfig {
  readonly enabled: boolean;
  readonly stableSeconds: number;
  readonly movingSeconds: number;
  /**
   * Interval of the pulses that watch calm vendors between full reads (0: off, calm vendors are
   * read every `stableSeconds` only).
   */
  readonly pulseSeconds: number;
  readonly concurrency: number;
  readonly timeoutMs: number;
  /**
   * Non-public addresses vendor fetches may reach (`STATUSD_ALLOW_PRIVATE_VENDORS`); every
   * other loopback, private, link-local or reserved address is refused, redirects included.
   */
  readonly allowPrivate: AddressAllowance;
  /** The proxies vendor fetches go through (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`…). */
  readonly proxy: ProxySettings;
}

/** Probe settings. */
export interface ProbesConfig {
  /** `STATUSD_PROBES`: vendors any account monitors (default), every vendor, or none. */
  readonly scope: "monitored" | "all" | "off";
  /** `STATUSD_PROBE_SECONDS`: time between two probe rounds of a vendor (default 60). */
  readonly intervalSeconds: number;
}

/** Alerting settings (a slice passed to the outbound worker and the route checks). */
export interface AlertingConfig {
  /**
   * Non-public addresses alert destinations may reach (`STATUSD_ALLOW_PRIVATE_DESTINATIONS`);
   * every other loopback, private, link-local or reserved address is refused.
   */
  readonly allowPrivate: AddressAllowance;
  /** The proxies webhook, Slack, Discord, Teams and PagerDuty deliveries go through. */
  readonly proxy: ProxySettings;
  /** `STATUSD_SMTP_URL` (credentials inside; never log it), or null: email routes are refused. */
  readonly smtpUrl: string | null;
  /** `STATUSD_MAIL_FROM`, default `statusd@<host of STATUSD_PUBLIC_URL>`. */
  readonly mailFrom: string;
}

/** The resolved configuration: every default filled in. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** The SQLite file (`STATUSD_DB`), used when {@link databaseUrl} is null. */
  readonly dbPath: string;
  /** `STATUSD_DATABASE_URL`: the PostgreSQL database to use instead of SQLite, or null. */
  readonly databaseUrl: string | null;
  /** `STATUSD_INSTANCE_ID`: this process's name among instances, or null (host and pid). */
  readonly instanceId: string | null;
  /** `{host_url}` without a trailing slash. */
  readonly publicUrl: string;
  /** Path of a catalog file replacing the built-in one, or null. */
  readonly catalogPath: string | null;
  readonly poll: PollConfig;
  /** statusd's own probes of vendors' endpoints (ingest/prober.ts). */
  readonly probes: ProbesConfig;
  readonly alerting: AlertingConfig;
  /**
   * Addresses/CIDRs of reverse proxies whose `X-Forwarded-For` / `Forwarded` header names the
   * client (empty: the connection's own address is the client).
   */
  readonly trustedProxies: readonly string[];
  /** Monitors an account above FREE may keep (`STATUSD_MAX_MONITORS`). */
  readonly maxMonitors: number;
  /**
   * The plan of accounts made by signing up (`STATUSD_SIGNUP_PLAN`, default FREE); the first
   * account of an empty database gets the top plan whatever this says.
   */
  readonly signupPlan: Plan;
  readonly logLevel: "debug" | "info" | "warn" | "error";
}

/** Validates `env` (a plain record, so tests pass a literal) into a frozen Config. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k in schema.shape && v !== undefined && v !== ""),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0]);
      return `Cannot use ${name} ${shown(name, env[name])}: ${i.message}`;
    });
    throw new ConfigError(lines.join("\n"));
  }
  const e = parsed.data;
  const proxy: ProxySettings = Object.freeze({
    http: firstSet(proxyVariablesOf("http:"), (name) => e[name])?.value ?? null,
    https: firstSet(proxyVariablesOf("https:"), (name) => e[name])?.value ?? null,
    noProxy: Object.freeze([...(firstSet(NO_PROXY_VARIABLES, (name) => e[name])?.value ?? [])]),
  });
  const publicUrl = (e.STATUSD_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(
    /(?<!\/)\/+$/,
    "",
  );
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dbPath: e.STATUSD_DB,
    databaseUrl: e.STATUSD_DATABASE_URL ?? null,
    instanceId: e.STATUSD_INSTANCE_ID ?? null,
    publicUrl,
    catalogPath: e.STATUSD_CATALOG ?? null,
    poll: Object.freeze({
      enabled: e.STATUSD_POLL === "on",
      stableSeconds: e.STATUSD_POLL_STABLE_SECONDS,
      movingSeconds: e.STATUSD_POLL_MOVING_SECONDS,
      pulseSeconds: e.STATUSD_POLL_PULSE_SECONDS,
      concurrency: e.STATUSD_POLL_CONCURRENCY,
      timeoutMs: e.STATUSD_POLL_TIMEOUT_MS,
      allowPrivate: e.STATUSD_ALLOW_PRIVATE_VENDORS,
      proxy,
    }),
    probes: Object.freeze({
      scope: e.STATUSD_PROBES,
      intervalSeconds: e.STATUSD_PROBE_SECONDS,
    }),
    alerting: Object.freeze({
      allowPrivate: e.STATUSD_ALLOW_PRIVATE_DESTINATIONS,
      proxy,
      smtpUrl: e.STATUSD_SMTP_URL ?? null,
      mailFrom: e.STATUSD_MAIL_FROM ?? `statusd@${new URL(publicUrl).hostname}`,
    }),
    trustedProxies: Object.freeze([...e.STATUSD_TRUSTED_PROXIES]),
    maxMonitors: e.STATUSD_MAX_MONITORS,
    signupPlan: e.STATUSD_SIGNUP_PLAN,
    logLevel: e.STATUSD_LOG,
  });
}
