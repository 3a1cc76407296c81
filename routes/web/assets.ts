/**
 * Static assets of the server-rendered pages, as strings so the bundle embeds them, and the
 * route serving them. Pages link them (never inline), so the Content-Security-Policy can
 * allow only statusd's own files (`middleware/security_headers.ts`).
 * @module
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import type { Register } from "../register.ts";

/** The one stylesheet every page uses (served at {@link ASSET_PATHS}`.css`). */
export const CSS = `
:root{--fg:#1b1f24;--muted:#5b6570;--bg:#fff;--line:#e3e6ea;--accent:#0b5fff;
--ok:#1a7f37;--maint:#0969da;--deg:#9a6700;--part:#bc4c00;--major:#cf222e;--unk:#6e7781}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
header.site{display:flex;gap:1.5rem;align-items:center;padding:.75rem 1.5rem;border-bottom:1px solid var(--line)}
header.site .brand{font-weight:700;color:var(--fg)}
header.site .who{margin-left:auto}
header.site nav{display:flex;gap:1rem;flex-wrap:wrap}
header.site nav a[aria-current=page]{font-weight:600;color:var(--fg)}
body>main{max-width:72rem;margin:0 auto;padding:1.5rem}body>main.wide{max-width:none;padding:0}
footer.site{max-width:72rem;margin:2rem auto;padding:0 1.5rem;color:var(--muted);font-size:.85rem}
h1{font-size:1.6rem;margin:.2rem 0 1rem}h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;color:var(--muted);font-size:.85rem}
.muted{color:var(--muted)}
.badge{display:inline-block;padding:0 .5rem;border-radius:1rem;font-size:.8rem;font-weight:600;color:#fff;white-space:nowrap}
.s-OPERATIONAL{background:var(--ok)}.s-UNDER_MAINTENANCE{background:var(--maint)}
.s-DEGRADED_PERFORMANCE{background:var(--deg)}.s-PARTIAL_OUTAGE{background:var(--part)}
.s-MAJOR_OUTAGE{background:var(--major)}.s-UNKNOWN{background:var(--unk)}
form.inline{display:flex;gap:.5rem;flex-wrap:wrap;margin:0 0 1rem}
input,select,button{font:inherit;padding:.3rem .5rem;border:1px solid var(--line);border-radius:.3rem}
button{background:var(--accent);color:#fff;border-color:var(--accent);cursor:pointer}
.pager{display:flex;gap:1rem;margin-top:1rem}
.notice{padding:.75rem 1rem;border:1px solid var(--line);border-radius:.4rem;background:#f6f8fa}
.error{border-color:var(--major);background:#fff5f5}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
pre{background:#f6f8fa;padding:.75rem;border-radius:.4rem;overflow:auto}
ol.timeline{padding-left:1.2rem}ol.timeline li{margin-bottom:.5rem}
ol.days{display:flex;flex-wrap:wrap;gap:2px;list-style:none;padding:0;margin:.5rem 0}
ol.days li{width:.55rem;height:1.6rem;border-radius:2px}
ol.days li.s-UNKNOWN{background:repeating-linear-gradient(45deg,#d0d7de 0 3px,#f6f8fa 3px 6px)}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.r-fresh{background:var(--ok)}.r-stale{background:var(--deg)}.r-failing{background:var(--major)}
.r-unsupported{background:var(--unk)}.r-never_read{background:var(--unk)}
.warn{border-color:var(--deg);background:#fff8e5}
form.stack{display:grid;gap:.6rem;max-width:36rem;margin:0 0 1rem}form.stack label{display:grid;gap:.2rem}
form.stack label.check{display:block}fieldset{border:1px solid var(--line);border-radius:.4rem}
`;

/** Copies the text of `data-copy` targets to the clipboard (secrets shown once, snippets). */
export const COPY_SCRIPT = `
document.addEventListener("click",function(e){var b=e.target.closest("[data-copy]");if(!b)return;
var t=document.getElementById(b.getAttribute("data-copy"));if(!t)return;
navigator.clipboard.writeText(t.textContent.trim()).then(function(){var o=b.textContent;b.textContent="Copied";
setTimeout(function(){b.textContent=o},1500)})});
`;

function versioned(path: string, text: string): string {
  return `${path}?v=${encodeHexLowerCase(sha256(new TextEncoder().encode(text))).slice(0, 12)}`;
}

/** Where pages link the assets; the `v` query changes with the content (cache busting). */
export const ASSET_PATHS = {
  css: versioned("/assets/site.css", CSS),
  script: versioned("/assets/copy.js", COPY_SCRIPT),
} as const;

/** Serves the stylesheet and the script (cacheable for a day; the links change with them). */
export const registerAssets: Register = (api) => {
  const cache = "public, max-age=86400";
  api.get(
    "/assets/site.css",
    (c) => c.body(CSS, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": cache }),
  );
  api.get("/assets/copy.js", (c) =>
    c.body(COPY_SCRIPT, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": cache,
    }));
};
