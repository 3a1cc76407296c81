/**
 * Static assets of the server-rendered pages, as strings so the bundle embeds them, and the
 * route serving them. Pages link them (never inline), so the Content-Security-Policy can
 * allow only statusd's own files (`middleware/security_headers.ts`).
 * @module
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import type { Register } from "../register.ts";

/**
 * The one stylesheet every page uses (served at {@link ASSET_PATHS}`.css`). The `body.light-mode`
 * and `body.dark-mode` rules darken the API reference viewer's muted and method colours on
 * `/docs` to meet WCAG AA contrast (the viewer's own greys and blues fall short).
 */
export const CSS = `
:root{--fg:#1b1f24;--muted:#57606a;--bg:#fff;--line:#d0d7de;--soft:#f6f8fa;--accent:#0a58d0;
--ok:#1a7f37;--maint:#0969da;--deg:#9a6700;--part:#bc4c00;--major:#cf222e;--unk:#6e7781;--danger:#cf222e}
*{box-sizing:border-box}[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);overflow-wrap:break-word}
a{color:var(--accent);text-decoration:underline;text-underline-offset:.15em}
header.site a,footer.site a,table a{text-decoration:none}a:hover{text-decoration:underline}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:.5rem;top:-3rem;background:var(--bg);padding:.4rem .8rem;border:2px solid var(--accent);border-radius:.3rem;z-index:10}
.skip:focus{top:.5rem}
header.site{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;padding:.75rem 1.5rem;border-bottom:1px solid var(--line)}
header.site .brand{font-weight:700;color:var(--fg)}
header.site .who{margin-left:auto}
header.site nav{display:flex;gap:.25rem 1rem;flex-wrap:wrap}
details.narrow-nav{display:none}details.narrow-nav summary{cursor:pointer;padding:.2rem .4rem;border:1px solid var(--line);border-radius:.3rem;list-style:none}
details.narrow-nav summary::-webkit-details-marker{display:none}
details.narrow-nav[open] nav{position:absolute;left:0;right:0;margin-top:.6rem;padding:.75rem 1rem;background:var(--bg);border-bottom:1px solid var(--line);flex-direction:column;z-index:5}
details.narrow-nav nav a{padding:.3rem 0}
header.site nav a[aria-current=page]{font-weight:600;color:var(--fg);text-decoration:underline}
form.sign-out{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap;margin:0}
body>main{max-width:72rem;margin:0 auto;padding:1.5rem}body>main.wide{max-width:none;padding:0}
#main:focus{outline:none}
footer.site{max-width:72rem;margin:2rem auto;padding:0 1.5rem;color:var(--muted);font-size:.85rem}
h1{font-size:1.6rem;margin:.2rem 0 1rem}h2{font-size:1.2rem;margin:1.75rem 0 .5rem}h3{font-size:1rem;margin:1rem 0 .25rem}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
table.dense th,table.dense td{padding:.3rem .5rem;vertical-align:middle}table.dense td{font-size:.95rem}table.dense td.when{white-space:nowrap;font-size:.85rem}table.dense td .muted{font-size:.85rem}
th{font-weight:600;color:var(--muted);font-size:.85rem}
.scroll{overflow-x:auto;max-width:100%}
.muted{color:var(--muted)}
.badge{display:inline-block;padding:0 .5rem;border-radius:1rem;font-size:.8rem;font-weight:600;color:#fff;white-space:nowrap;vertical-align:middle}
.s-OPERATIONAL{background:var(--ok)}.s-UNDER_MAINTENANCE{background:var(--maint)}
.s-DEGRADED_PERFORMANCE{background:var(--deg)}.s-PARTIAL_OUTAGE{background:var(--part)}
.s-MAJOR_OUTAGE{background:var(--major)}.s-UNKNOWN{background:var(--unk)}
form.inline{display:flex;gap:.5rem;flex-wrap:wrap;margin:0 0 1rem}
span.row-actions{display:inline-flex;gap:.75rem;align-items:center;flex-wrap:wrap}.row-actions form.inline{margin:0}
td.row-actions{white-space:nowrap;vertical-align:middle}td.row-actions>*+*{margin-left:.75rem}td.row-actions form.inline{display:inline-block}
.row-actions a{display:inline-block;padding:.3rem .2rem;min-width:24px;min-height:24px}
article.card{border:1px solid var(--line);border-radius:.4rem;padding:.25rem 1rem .5rem;margin:0 0 1rem;min-width:0}
form.filters{display:grid;grid-template-columns:repeat(auto-fill,minmax(9.5rem,1fr));gap:.6rem 1rem;align-items:end;margin:0 0 1rem}
form.filters label{display:grid;gap:.15rem;font-size:.85rem;font-weight:600;color:var(--muted);min-width:0}
form.filters input,form.filters select{width:100%;min-width:0;font-weight:400}
form.filters .actions{display:flex;gap:1rem;align-items:center}
input,select,button,textarea{font:inherit;padding:.3rem .5rem;border:1px solid #8c959f;border-radius:.3rem;max-width:100%;color:var(--fg);background:var(--bg)}
@supports selector(:has(a)){form.route-form .f-url,form.route-form .f-to,form.route-form .f-key{display:none}
form.route-form:has(input[value=slack]:checked) .f-url,form.route-form:has(input[value=discord]:checked) .f-url,
form.route-form:has(input[value=teams]:checked) .f-url,form.route-form:has(input[value=webhook]:checked) .f-url,
form.route-form:has(input[value=email]:checked) .f-to,form.route-form:has(input[value=pagerduty]:checked) .f-key{display:grid}}
.mark{display:inline-grid;place-items:center;width:1.7rem;height:1.7rem;border-radius:.35rem;font-size:.7rem;font-weight:700;color:#fff;vertical-align:middle;margin-right:.15rem}
.m0{background:#0a58d0}.m1{background:#1a7f37}.m2{background:#8250df}.m3{background:#bc4c00}.m4{background:#bf3989}.m5{background:#0e7490}.m6{background:#57606a}.m7{background:#9a6700}
figure.chart{margin:1rem 0}figure.chart figcaption{font-size:.9rem;color:var(--muted)}
ol.bars{display:grid;grid-auto-flow:column;grid-auto-columns:minmax(0,1fr);gap:3px;align-items:end;height:4rem;list-style:none;padding:0;margin:.3rem 0;border-bottom:1px solid var(--line)}
ol.bars li{height:100%;display:flex;align-items:flex-end}ol.bars .bar{display:block;width:100%;background:var(--part);border-radius:2px 2px 0 0}
.bar.h0{height:0}.bar.h1{height:10%}.bar.h2{height:20%}.bar.h3{height:30%}.bar.h4{height:40%}.bar.h5{height:50%}.bar.h6{height:60%}.bar.h7{height:70%}.bar.h8{height:80%}.bar.h9{height:90%}.bar.h10{height:100%}
ul.settings-index{list-style:none;padding:0}ul.settings-index li{border-top:1px solid var(--line);padding:.5rem 0}
ul.settings-index a{font-weight:600;font-size:1.05rem}ul.settings-index p{margin:.2rem 0}
textarea{width:100%;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
button{background:var(--accent);color:#fff;border-color:var(--accent);cursor:pointer}
button.secondary{background:var(--bg);color:var(--accent)}
button.link{background:none;border:0;padding:0;color:var(--accent);text-decoration:underline}
button.danger{background:var(--major);border-color:var(--major);color:#fff}a.danger{color:var(--danger)}
.pager{display:flex;flex-wrap:wrap;gap:1rem;margin-top:1rem;align-items:center}
.notice{padding:.75rem 1rem;border:1px solid var(--line);border-radius:.4rem;background:var(--soft)}
.error{border-color:var(--major);background:#fff5f5}
.warn{border-color:var(--deg);background:#fff8e5}.notice>h2:first-child,.notice>h3:first-child{margin-top:0}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
code{overflow-wrap:anywhere}
pre{background:var(--soft);padding:.75rem;border-radius:.4rem;white-space:pre-wrap;overflow-wrap:anywhere}
ol.timeline{list-style:none;padding:0 0 0 .75rem;margin:.25rem 0 .75rem;border-left:3px solid var(--line)}ol.timeline li{margin-bottom:.4rem}
ol.timeline .what{white-space:pre-line}
ul.incidents{list-style:none;padding:0}ul.incidents>li{border-top:1px solid var(--line);padding:.25rem 0 .5rem}
ul.incidents p{margin:.25rem 0}
ul.plain{padding-left:1.2rem}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.75rem;margin:.5rem 0}
.figure{border:1px solid var(--line);border-radius:.4rem;padding:.6rem .8rem}
.figure .label{display:block;font-size:.85rem;color:var(--muted)}
.figure .value{display:block;font-size:1.15rem;font-weight:600}
ol.days{display:grid;grid-auto-flow:column;grid-auto-columns:minmax(0,1fr);gap:2px;list-style:none;padding:0;margin:.4rem 0}
ol.days li{height:2rem;border-radius:2px;min-width:0}
ol.days.small li{height:1.1rem}
ol.days li.s-UNKNOWN,.swatch.s-UNKNOWN{background:repeating-linear-gradient(45deg,#afb8c1 0 2px,#f6f8fa 2px 5px);box-shadow:inset 0 0 0 1px #afb8c1}
.bar-ends{display:flex;justify-content:space-between;font-size:.8rem;color:var(--muted)}
ul.legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0;margin:.25rem 0 1rem;font-size:.85rem}
.swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;vertical-align:-.1rem;margin-right:.3rem}
.component{margin:.75rem 0}.component h3{display:flex;flex-wrap:wrap;gap:.25rem .6rem;align-items:center;font-weight:600}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.r-fresh{background:var(--ok)}.r-stale{background:var(--deg)}.r-failing{background:var(--major)}
.r-unsupported{background:var(--unk)}.r-never_read{background:var(--unk)}
form.stack{display:grid;gap:.6rem;max-width:36rem;margin:0 0 1rem}form.stack label{display:grid;gap:.2rem}
form.stack label.check{display:block}fieldset{border:1px solid var(--line);border-radius:.4rem;min-width:0}
body.light-mode{--scalar-color-2:#595959;--scalar-color-3:#666;--scalar-color-blue:#0a58d0;--scalar-color-green:#1a7f37;
--scalar-color-orange:#bc4c00;--scalar-color-red:#cf222e;--scalar-color-purple:#8250df;--scalar-color-yellow:#9a6700}
body.dark-mode{--scalar-color-2:#b4b4b4;--scalar-color-3:#a0a0a0}
body.status-page{--brand:var(--accent)}
.sp-head{max-width:60rem;margin:0 auto;padding:1.25rem 1.5rem .5rem;border-top:6px solid var(--brand)}
.sp-brand{display:flex;gap:.75rem;align-items:center}.sp-brand h1{margin:0}.sp-brand img.logo{height:3rem;width:auto;max-width:12rem;object-fit:contain}
.monogram{display:inline-grid;place-items:center;width:2.6rem;height:2.6rem;border-radius:.5rem;background:var(--fg);color:var(--bg);font-weight:700;flex:none}
.lead{font-size:1.05rem;margin:.6rem 0}
ul.sp-links{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;list-style:none;padding:0;margin:.5rem 0}
ul.sp-links a{display:inline-block;padding:.2rem 0;min-height:24px}
body.status-page>main{max-width:60rem}
.banner{border:1px solid var(--line);border-left:6px solid var(--unk);border-radius:.4rem;padding:.5rem 1rem;background:var(--soft);margin:0 0 1rem}
.banner h2{margin:.4rem 0}.banner ul.affected{margin:.25rem 0 .5rem;padding-left:1.2rem}
.b-OPERATIONAL{border-left-color:var(--ok)}.b-UNDER_MAINTENANCE{border-left-color:var(--maint)}
.b-DEGRADED_PERFORMANCE{border-left-color:var(--deg)}.b-PARTIAL_OUTAGE{border-left-color:var(--part)}
.b-MAJOR_OUTAGE{border-left-color:var(--major)}
.board-entry{border-top:1px solid var(--line);padding:.25rem 0 .75rem}.board-entry h2{margin:.75rem 0 .25rem}
.board-entry p.facts{margin:0 0 .25rem;font-size:.9rem}h3.sub{font-size:.95rem;color:var(--muted)}
.sp-foot{max-width:60rem;margin:1rem auto 2rem;padding:0 1.5rem;font-size:.85rem}
body.embed>main{padding:.5rem;max-width:none}body.embed h1{font-size:1rem;font-weight:600}body.embed .banner{margin:0 0 .5rem}
ul.embed-list{list-style:none;padding:0;margin:0 0 .5rem}ul.embed-list li{padding:.15rem 0;border-bottom:1px solid var(--line)}
@media (prefers-color-scheme:dark){
:root{--fg:#e6edf3;--muted:#9da7b3;--bg:#0d1117;--line:#30363d;--soft:#161b22;--accent:#58a6ff;--danger:#ff7b72}
.error{background:#2d1215}.warn{background:#2b2111}
ol.days li.s-UNKNOWN,.swatch.s-UNKNOWN{background:repeating-linear-gradient(45deg,#6e7781 0 2px,#161b22 2px 5px)}
button{color:#0d1117}
}
@media (max-width:40rem){
.sp-head{padding:1rem 1rem .25rem}.sp-foot{padding:0 1rem}
header.site{padding:.6rem 1rem;position:relative;flex-wrap:nowrap}body>main{padding:1rem}footer.site{padding:0 1rem}
header.site nav.wide-nav{display:none}details.narrow-nav{display:block}
header.site .who{margin-left:auto;min-width:0}header.site .who .muted{display:none}
ol.days{gap:1px}
table.cards thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.cards,table.cards tbody{display:block;width:100%}
table.cards tr{display:flex;flex-wrap:wrap;align-items:center;gap:.15rem .8rem;border-bottom:1px solid var(--line);padding:.5rem 0}
table.cards td{display:block;border:0;padding:0;font-size:.9rem}table.cards td.row-actions{white-space:normal}
table.cards td:first-child{flex:1 0 100%;font-size:1rem;font-weight:600}
table.cards td.labelled::before{content:attr(data-label) ": ";color:var(--muted)}
}
`;

/**
 * Copies the text of `data-copy` targets to the clipboard (secrets shown once, snippets), and
 * gives `data-picker` checkbox lists a filter and select all/none (hidden without script).
 */
export const COPY_SCRIPT = `
document.addEventListener("click",function(e){var b=e.target.closest("[data-copy]");if(!b)return;
var t=document.getElementById(b.getAttribute("data-copy"));if(!t)return;
navigator.clipboard.writeText(t.textContent.trim()).then(function(){var o=b.textContent;b.textContent="Copied";
setTimeout(function(){b.textContent=o},1500)})});
document.querySelectorAll("[data-picker]").forEach(function(p){var box=document.getElementById(p.getAttribute("data-picker"));
if(!box)return;p.hidden=false;var f=p.querySelector("[data-filter]");var items=function(){
return Array.prototype.filter.call(box.querySelectorAll("label.check"),function(l){return !p.contains(l)})};
if(f)f.addEventListener("input",function(){var q=f.value.trim().toLowerCase();items().forEach(function(l){
l.hidden=q!==""&&l.textContent.toLowerCase().indexOf(q)<0})});
p.querySelectorAll("[data-all]").forEach(function(b){b.addEventListener("click",function(){var on=b.getAttribute("data-all")==="1";
items().forEach(function(l){var c=l.querySelector("input[type=checkbox]");if(c&&(!on||!l.hidden))c.checked=on})})})});
`;

/**
 * Search as you type on `/services` (progressive enhancement: the form works without it). On
 * input (debounced) or a filter change it fetches the same page with the form's query, swaps in
 * its result list and pager, updates the live result count, and keeps the URL in step, so the
 * ranking is the server's own (domain/search.ts) and a reload shows the same list.
 */
export const SEARCH_SCRIPT = `
(function(){var form=document.getElementById("service-filters");
if(!form||!window.fetch||!window.DOMParser||!window.URLSearchParams)return;
var q=form.querySelector("input[name=q]"),timer=0,seq=0;
function query(){var p=new URLSearchParams(new FormData(form)),out=new URLSearchParams();
p.forEach(function(v,k){if(v!==""&&k!=="page")out.append(k,v)});var t=out.toString();return t?"?"+t:""}
function swap(doc,id){var now=document.getElementById(id),next=doc.getElementById(id);
if(now&&next)now.replaceWith(document.importNode(next,true))}
function update(){var url="/services"+query(),my=++seq;form.setAttribute("aria-busy","true");
fetch(url,{headers:{Accept:"text/html"},credentials:"same-origin"}).then(function(r){return r.text()})
.then(function(html){if(my!==seq)return;var doc=new DOMParser().parseFromString(html,"text/html");
swap(doc,"results");var c=document.getElementById("result-count"),n=doc.getElementById("result-count");
if(c&&n)c.textContent=n.textContent;history.replaceState(null,"",url)})
.catch(function(){}).then(function(){if(my===seq)form.removeAttribute("aria-busy")})}
if(q)q.addEventListener("input",function(){clearTimeout(timer);timer=setTimeout(update,150)});
form.addEventListener("change",function(e){if(e.target===q)return;clearTimeout(timer);update()});
form.setAttribute("data-live","on")})();
`;

/**
 * Names the API reference viewer's copy buttons on `/docs` ("Copy code"): the viewer draws them
 * with an icon and no accessible name, which screen readers announce as just "button". And makes
 * its per-tag endpoint lists, which scroll on a phone, reachable from the keyboard.
 */
export const DOCS_SCRIPT = `
(function(){var queued=false;function label(){queued=false;
document.querySelectorAll("button.scalar-code-copy:not([aria-label])").forEach(function(b){
b.setAttribute("aria-label","Copy code")});
document.querySelectorAll('ul[aria-label$=" endpoints"]:not([tabindex])').forEach(function(l){
l.setAttribute("tabindex","0")})}
new MutationObserver(function(){if(!queued){queued=true;requestAnimationFrame(label)}})
.observe(document.documentElement,{childList:true,subtree:true});label()})();
`;

function versioned(path: string, text: string): string {
  return `${path}?v=${encodeHexLowerCase(sha256(new TextEncoder().encode(text))).slice(0, 12)}`;
}

/** Where pages link the assets; the `v` query changes with the content (cache busting). */
export const ASSET_PATHS = {
  css: versioned("/assets/site.css", CSS),
  script: versioned("/assets/copy.js", COPY_SCRIPT),
  search: versioned("/assets/search.js", SEARCH_SCRIPT),
  docs: versioned("/assets/docs.js", DOCS_SCRIPT),
} as const;

/** Serves the stylesheet and the scripts (cacheable for a day; the links change with them). */
export const registerAssets: Register = (api) => {
  const cache = "public, max-age=86400";
  api.get(
    "/assets/site.css",
    (c) => c.body(CSS, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": cache }),
  );
  const scripts: [string, string][] = [
    ["/assets/copy.js", COPY_SCRIPT],
    ["/assets/search.js", SEARCH_SCRIPT],
    ["/assets/docs.js", DOCS_SCRIPT],
  ];
  for (const [path, script] of scripts) {
    api.get(path, (c) =>
      c.body(script, 200, {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": cache,
      }));
  }
};
