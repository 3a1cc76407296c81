/**
 * `/docs`: the API reference, rendered in the browser from `/openapi.json` by the Scalar API
 * reference viewer, which statusd serves itself (`/assets/api-reference.<hash>.js`): no CDN,
 * so it works offline, and no inline script, so it works under a strict CSP.
 * @module
 */
import type { Context } from "hono";
import { gunzipSync } from "node:zlib";
import { decodeBase64 } from "@oslojs/encoding";
import type { Env } from "../env.ts";
import type { Register } from "../register.ts";
import { DOCS_CSP } from "../middleware/security_headers.ts";
import { ASSET_PATHS } from "./assets.ts";
import { Layout } from "./layout.tsx";
import {
  API_REFERENCE_GZIP_BASE64,
  API_REFERENCE_SHA256,
  API_REFERENCE_VERSION,
} from "./_api_reference_bundle.ts";

/** Path of the viewer script; its name changes with its content, so it is cached for good. */
export const API_REFERENCE_PATH = `/assets/api-reference.${API_REFERENCE_SHA256.slice(0, 16)}.js`;

/**
 * What the viewer is told (read from `data-configuration`): the document to render, and no
 * request that would leave this server (no web fonts, no telemetry, no AI agent).
 */
export const VIEWER_CONFIGURATION = {
  url: "/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: "never",
  hideDarkModeToggle: false,
  showOperationId: true,
  defaultOpenAllTags: true,
  // No "Generate MCP" promotion (it links to a hosted service; statusd has its own MCP server).
  mcp: { disabled: true },
};

let gzipped: Uint8Array<ArrayBuffer> | null = null;
let plain: Uint8Array<ArrayBuffer> | null = null;

/** The viewer script, gzipped (decoded from the module once, on first use). */
function gzippedScript(): Uint8Array<ArrayBuffer> {
  gzipped ??= decodeBase64(API_REFERENCE_GZIP_BASE64) as Uint8Array<ArrayBuffer>;
  return gzipped;
}

/** The viewer script, uncompressed (for the rare client that does not take gzip). */
function plainScript(): Uint8Array<ArrayBuffer> {
  plain ??= new Uint8Array(gunzipSync(gzippedScript()));
  return plain;
}

function acceptsGzip(header: string | undefined): boolean {
  return (header ?? "").split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return (coding === "gzip" || coding === "*") && (q === undefined || Number(q.slice(2)) > 0);
  });
}

function script(c: Context<Env>): Response {
  const etag = `"${API_REFERENCE_SHA256}"`;
  const headers: Record<string, string> = {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": "public, max-age=31536000, immutable",
    ETag: etag,
    Vary: "Accept-Encoding",
  };
  if (c.req.header("if-none-match") === etag) return new Response(null, { status: 304, headers });
  if (acceptsGzip(c.req.header("accept-encoding"))) {
    return new Response(gzippedScript(), {
      headers: { ...headers, "Content-Encoding": "gzip" },
    });
  }
  return new Response(plainScript(), { headers });
}

function docsPage(c: Context<Env>) {
  const app = c.get("app");
  c.header("Content-Security-Policy", DOCS_CSP);
  return c.html(
    <Layout
      title="API reference"
      description="The statusd REST API: every operation, parameter and response, from the OpenAPI 3.1 document."
      publicUrl={app.settings.publicUrl}
      canonicalPath="/docs"
      nav="api"
      wide
      ownMain
      scripts={[ASSET_PATHS.docs]}
    >
      <noscript>
        <p class="notice">
          The API reference is drawn by JavaScript. Without it, read the OpenAPI document itself:
          {" "}
          <a href="/openapi.json">/openapi.json</a> or <a href="/openapi.yaml">/openapi.yaml</a>.
        </p>
      </noscript>
      <script
        id="api-reference"
        type="application/json"
        data-url="/openapi.json"
        data-configuration={JSON.stringify(VIEWER_CONFIGURATION)}
      >
      </script>
      <script src={API_REFERENCE_PATH} data-version={API_REFERENCE_VERSION}></script>
    </Layout>,
  );
}

/** Mounts `/docs` and the viewer script. */
export const registerDocs: Register = (api) => {
  api.get("/docs", docsPage);
  api.get(API_REFERENCE_PATH, script);
};
