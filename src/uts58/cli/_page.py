"""The playground page of ``uts58 serve``: its HTML, style sheets and script,
served as files of their own so that the Content-Security-Policy allows no
inline script or style at all (D129).

The script writes every value the server sends with ``textContent`` and
DOM calls, never ``innerHTML``; the one place HTML is parsed is the preview
of linkify's output, in ``<iframe sandbox srcdoc>`` (no script, an opaque
origin, the page's policy inherited).  Highlights are placed with the UTF-16
offsets the server computes (:func:`uts58.output.offsets.link_offsets`): the page
does no arithmetic of its own on the text.
"""

from __future__ import annotations

__all__ = ["FILES", "SAMPLE"]

SAMPLE = (
    "Docs: https://example.com/guide?lang=ja#install — mirror at 日本語.jp/ガイド。\n"
    "Write to info@bücher.de or see пример.рф/страница.\n"
    "Arabic: زوروا موقع.مصر/صفحة اليوم. Thai: ดูที่ ไทย.ไทย/หน้า นะครับ\n"
    "🎉 github.com/unicode-org/, ftp://files.example.org/pub/, and раураl.com (not paypal.com)."
)

HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>uts58 playground</title>
<link rel="stylesheet" href="/playground.css">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<script src="/playground.js" defer></script>
</head>
<body data-state="loading" data-requested="0" data-rendered="0">
<header>
  <h1>uts58 playground</h1>
  <p>Unicode link detection and formatting (UTS #58), running on this machine.</p>
</header>
<main>
  <section id="input-pane" class="card">
    <label for="input" class="heading">Text</label>
    <textarea id="input" spellcheck="false" rows="7" placeholder="Paste text in any script…"></textarea>
    <p id="status" role="status" aria-live="polite">Loading…</p>
  </section>
  <section id="options" class="card">
    <h2>Options</h2>
    <label for="schemes">Schemes <small>(comma-separated)</small></label>
    <input id="schemes" type="text" spellcheck="false">
    <label class="check"><input id="require_scheme" type="checkbox"> Only with a scheme</label>
    <label for="unicode_version">Unicode version</label>
    <select id="unicode_version"></select>
    <label for="policy">§8 policy</label>
    <select id="policy"></select>
    <label for="preset">Preset</label>
    <select id="preset"><option value="">none</option></select>
    <label for="truncate">Shorten shown text to <small>(characters)</small></label>
    <div class="row">
      <input id="truncate" type="number" min="1" step="1" placeholder="no limit">
      <select id="truncate_location" aria-label="where to cut"></select>
    </div>
    <label class="check"><input id="strip_prefix" type="checkbox"> Show without http(s):// and www.</label>
    <details>
      <summary>More detection options</summary>
      <label class="check"><input id="bare_ipv4" type="checkbox"> Bare IPv4 with a port or path</label>
      <label class="check"><input id="bare_localhost" type="checkbox"> localhost:PORT</label>
      <label class="check"><input id="single_label_hosts" type="checkbox"> One-label hosts after a scheme</label>
      <label class="check"><input id="cjk_prose" type="checkbox"> CJK prose without spaces</label>
    </details>
  </section>
  <section id="highlight-pane" class="card wide">
    <h2>Links in the text</h2>
    <p class="legend"><mark class="link url ok">URL</mark> <mark class="link email ok">email</mark>
      <mark class="link url rejected">refused by the policy</mark></p>
    <div id="highlighted" class="text"></div>
  </section>
  <section id="links-pane" class="card wide">
    <h2>Links <span id="count"></span></h2>
    <div class="scroll">
      <table id="links">
        <thead><tr><th>#</th><th>kind</th><th>text</th><th>href</th><th>shown</th><th>host</th>
          <th>§8 verdict</th></tr></thead>
        <tbody></tbody>
      </table>
    </div>
  </section>
  <section class="card">
    <h2>HTML <small>(linkify)</small></h2>
    <pre id="html-out" class="code"></pre>
    <h3>Preview <small>(sandboxed, no script)</small></h3>
    <iframe id="preview" title="HTML preview" sandbox="allow-popups allow-popups-to-escape-sandbox"></iframe>
  </section>
  <section class="card">
    <h2>Markdown</h2>
    <pre id="markdown-out" class="code"></pre>
  </section>
  <section id="format-pane" class="card wide">
    <h2>format_url / format_email</h2>
    <input id="format-input" type="text" spellcheck="false"
      placeholder="a URL (any escaping) or an email address" value="https://xn--bcher-kva.de/stra%C3%9Fe?q=%E2%82%AC">
    <dl id="format-out"></dl>
  </section>
</main>
<footer><p id="limits"></p></footer>
</body>
</html>
"""

CSS = """:root { --fg: #1d2330; --muted: #5c6577; --bg: #f4f5f8; --card: #fff; --line: #dde1e8;
  --url: #dbeafe; --url-edge: #3b82f6; --email: #dcfce7; --email-edge: #16a34a; --bad: #fee2e2; --bad-edge: #dc2626; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans", sans-serif; color: var(--fg);
  background: var(--bg); }
header { padding: 14px 24px 6px; }
header h1 { margin: 0; font-size: 22px; }
header p { margin: 2px 0 0; color: var(--muted); }
main { display: grid; grid-template-columns: minmax(0, 2fr) minmax(260px, 1fr); gap: 14px; padding: 10px 24px 24px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; min-width: 0; }
.wide { grid-column: 1 / -1; }
h2, .heading { display: block; margin: 0 0 8px; font-size: 16px; font-weight: 600; }
h3 { margin: 12px 0 6px; font-size: 14px; }
small { color: var(--muted); font-weight: normal; }
textarea, input[type=text], input[type=number], select { width: 100%; font: inherit; padding: 6px 8px;
  border: 1px solid var(--line); border-radius: 6px; background: #fff; color: inherit; }
textarea { resize: vertical; min-height: 150px; }
#input-pane { display: flex; flex-direction: column; }
#input-pane textarea { flex: 1; }
#options label { display: block; margin: 8px 0 2px; font-size: 14px; }
#options label.check { display: flex; gap: 6px; align-items: center; }
#options label.check input { margin: 0; }
.row { display: flex; gap: 6px; }
details { margin-top: 8px; font-size: 14px; }
summary { cursor: pointer; color: var(--muted); }
#status { margin: 6px 0 0; color: var(--muted); font-size: 14px; min-height: 1.5em; }
body[data-state=error] #status { color: var(--bad-edge); }
.text { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 16px; line-height: 1.9; max-height: 560px;
  overflow: auto; }
mark.link { background: var(--url); border-bottom: 2px solid var(--url-edge); border-radius: 3px; padding: 1px 0;
  color: inherit; }
mark.link.email { background: var(--email); border-bottom-color: var(--email-edge); }
mark.link.rejected { background: var(--bad); border-bottom: 2px dashed var(--bad-edge); }
mark.link.active { outline: 2px solid var(--fg); }
.muted { color: var(--muted); font-size: 12px; }
sup.n { font-size: 10px; color: var(--muted); margin: 0 1px; }
.legend { margin: 0 0 6px; font-size: 13px; }
.scroll { overflow: auto; max-height: 420px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: start; vertical-align: top; padding: 4px 6px; border-bottom: 1px solid var(--line); }
th { position: sticky; top: 0; background: var(--card); }
td code { overflow-wrap: anywhere; }
tr.active td { background: #fef9c3; }
.ok-verdict { color: var(--email-edge); font-weight: 600; }
.bad-verdict { color: var(--bad-edge); font-weight: 600; }
ul.reasons { margin: 2px 0 0; padding-inline-start: 16px; }
pre.code { margin: 0; padding: 8px; background: #f8fafc; border: 1px solid var(--line); border-radius: 6px;
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 260px; overflow: auto; font-size: 13px; }
iframe { width: 100%; height: 160px; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 4px 12px; margin: 10px 0 0; }
dt { color: var(--muted); }
dd { margin: 0; font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
dd.error { color: var(--bad-edge); font-family: inherit; }
footer { padding: 0 24px 18px; color: var(--muted); font-size: 13px; }
@media (max-width: 800px) { main { grid-template-columns: minmax(0, 1fr); } }
"""

# What the preview frame's document links to: its own sheet (the frame
# inherits the page's policy, which allows no inline style).
PREVIEW_CSS = """body { margin: 8px; font: 15px/1.6 system-ui, sans-serif; white-space: pre-wrap;
  overflow-wrap: anywhere; }
a { color: #1d4ed8; }
"""

JS = r"""// uts58 playground: sends the form to the local server, writes what comes back with DOM calls only.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  const MAX_ROWS = 2000; // table rows drawn (a long text has tens of thousands of links; the highlights show all)
  const FLAGS = ["require_scheme", "bare_ipv4", "bare_localhost", "single_label_hosts", "cjk_prose", "strip_prefix"];
  const PREVIEW_HEAD = '<!doctype html><meta charset="utf-8"><base target="_blank">' +
    '<link rel="stylesheet" href="/preview.css"><body>';
  let requested = 0;
  let timer = 0;
  let controller = null;
  let formatTimer = 0;
  let formatController = null;

  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function post(path, payload, signal) {
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
      cache: "no-store",
      credentials: "omit",
      signal,
    }).then(async (response) => {
      let data;
      try { data = await response.json(); } catch (e) { data = { error: `HTTP ${response.status}` }; }
      return { ok: response.ok, status: response.status, data };
    });
  }

  function options() {
    const o = {
      text: $("input").value,
      schemes: $("schemes").value.split(",").map((s) => s.trim()).filter((s) => s !== ""),
      unicode_version: $("unicode_version").value,
      policy: $("policy").value,
      truncate_location: $("truncate_location").value,
    };
    for (const name of FLAGS) o[name] = $(name).checked;
    if ($("preset").value) o.preset = $("preset").value;
    const truncate = $("truncate").value.trim();
    if (truncate !== "") o.truncate = Number(truncate);
    return o;
  }

  // Every change counts (data-requested) at once; data-rendered says which one is shown.
  function changed() {
    requested += 1;
    body.dataset.requested = String(requested);
    body.dataset.state = "busy";
    clearTimeout(timer);
    timer = setTimeout(send, 150);
  }

  function send() {
    const id = requested;
    if (controller) controller.abort();
    controller = new AbortController();
    const o = options();
    const started = performance.now();
    post("/api/links", o, controller.signal).then(({ ok, data }) => {
      if (id !== requested) return;
      if (ok) render(o.text, data, performance.now() - started);
      else failed(data);
      body.dataset.rendered = String(id);
      body.dataset.state = ok ? "ready" : "error";
    }).catch((error) => {
      if (error.name === "AbortError" || id !== requested) return;
      failed({ error: `the server did not answer (${error.message})` });
      body.dataset.rendered = String(id);
      body.dataset.state = "error";
    });
  }

  function failed(data) {
    const field = data.field ? ` (${data.field})` : "";
    $("status").textContent = `Error${field}: ${data.error || "unknown"}`;
  }

  function activate(index, on) {
    for (const node of document.querySelectorAll(`[data-index="${index}"]`)) node.classList.toggle("active", on);
  }

  function render(text, data, ms) {
    const links = data.links;
    const shown = $("highlighted");
    const pieces = [];
    let pos = 0;
    links.forEach((link, i) => {
      const [start, end] = link.utf16; // UTF-16 code units: JavaScript's string indices
      if (start > pos) pieces.push(document.createTextNode(text.slice(pos, start)));
      const mark = el("mark", `link ${link.kind} ${link.linked ? "ok" : "rejected"}`, text.slice(start, end));
      mark.dataset.index = String(i);
      mark.dataset.href = link.href;
      mark.dataset.kind = link.kind;
      mark.title = `${link.kind}: ${link.href}` + (link.linked ? "" : " — not linked: " +
        link.reasons.map((r) => r.code).join(", "));
      mark.addEventListener("mouseenter", () => activate(i, true));
      mark.addEventListener("mouseleave", () => activate(i, false));
      pieces.push(mark, el("sup", "n", i + 1));
      pos = end;
    });
    if (pos < text.length) pieces.push(document.createTextNode(text.slice(pos)));
    shown.replaceChildren(...pieces);

    const rows = links.slice(0, MAX_ROWS).map((link, i) => {
      const tr = el("tr");
      tr.dataset.index = String(i);
      tr.addEventListener("mouseenter", () => activate(i, true));
      tr.addEventListener("mouseleave", () => activate(i, false));
      const cell = (content, className) => {
        const td = el("td", className);
        td.append(content);
        return td;
      };
      const shownCell = el("td");
      shownCell.append(el("code", "", link.shown));
      if (link.title) shownCell.append(el("div", "muted", `title: ${link.title}`));
      if (link.shown !== link.display) shownCell.append(el("div", "muted", `display: ${link.display}`));
      const hostCell = el("td");
      hostCell.append(el("code", "", link.host || "(none)"));
      if (link.host_ascii && link.host_ascii !== link.host) hostCell.append(el("div", "", link.host_ascii));
      hostCell.append(el("div", "muted", link.host_kind));
      const verdict = el("td");
      verdict.append(el("span", link.linked ? "ok-verdict" : "bad-verdict", link.linked ? "linked" : "not linked"));
      if (link.reasons.length) {
        const list = el("ul", "reasons");
        for (const reason of link.reasons) {
          const item = el("li");
          item.append(el("code", "", reason.code), `: ${reason.message}`);
          list.append(item);
        }
        verdict.append(list);
      }
      tr.append(cell(String(i + 1)), cell(link.kind), cell(el("code", "", link.text)), cell(el("code", "", link.href)),
        shownCell, hostCell, verdict);
      return tr;
    });
    if (links.length > MAX_ROWS) {
      const more = el("td", "muted", `… and ${(links.length - MAX_ROWS).toLocaleString("en")} more links` +
        " (all of them are highlighted above)");
      more.colSpan = 7;
      const tr = el("tr");
      tr.append(more);
      rows.push(tr);
    }
    $("links").tBodies[0].replaceChildren(...rows);
    const linked = links.filter((link) => link.linked).length;
    $("count").textContent = `(${links.length})`;
    $("html-out").textContent = data.html;
    $("markdown-out").textContent = data.markdown;
    $("preview").srcdoc = PREVIEW_HEAD + data.html;
    $("status").textContent = `${links.length} link${links.length === 1 ? "" : "s"} found, ${linked} linked, ` +
      `${links.length - linked} refused by the policy · ${data.utf16_length} UTF-16 units · ` +
      `Unicode ${data.unicode_version} · ${Math.round(ms)} ms`;
  }

  function formatChanged() {
    clearTimeout(formatTimer);
    formatTimer = setTimeout(sendFormat, 150);
  }

  function sendFormat() {
    if (formatController) formatController.abort();
    formatController = new AbortController();
    const payload = { input: $("format-input").value, unicode_version: $("unicode_version").value };
    post("/api/format", payload, formatController.signal).then(({ ok, data }) => {
      const out = $("format-out");
      const items = [];
      const add = (term, value, className) => items.push(el("dt", "", term), el("dd", className || "", value));
      if (!ok) add("error", data.error, "error");
      else {
        add("kind", data.kind);
        if (data.error) add(data.kind === "email" ? "format_email" : "format_url", data.error, "error");
        if (data.minimal !== undefined) add(data.kind === "email" ? "format_email" : "format_url", data.minimal);
        if (data.maximal !== undefined) add('escape="maximal"', data.maximal);
      }
      out.replaceChildren(...items);
    }).catch(() => {});
  }

  function fill(select, values, chosen) {
    for (const value of values) {
      const option = el("option", "", value);
      option.value = value;
      select.append(option);
    }
    select.value = chosen;
  }

  function start(settings) {
    const d = settings.defaults;
    fill($("unicode_version"), settings.choices.unicode_version, d.unicode_version);
    fill($("policy"), settings.choices.policy, d.policy);
    fill($("preset"), settings.choices.preset, "");
    fill($("truncate_location"), settings.choices.truncate_location, d.truncate_location);
    $("schemes").value = d.schemes.join(", ");
    const limits = settings.limits;
    $("truncate").max = String(limits.truncate);
    $("limits").textContent = `Served from ${location.host} by uts58 ${settings.version}. A request holds at most ` +
      `${limits.text_chars.toLocaleString("en")} characters (${limits.body_bytes / 1024} KiB); nothing is stored.`;
    for (const node of document.querySelectorAll("#options input, #options select")) {
      node.addEventListener(node.type === "text" || node.type === "number" ? "input" : "change", changed);
    }
    $("input").addEventListener("input", changed);
    $("unicode_version").addEventListener("change", formatChanged);
    $("format-input").addEventListener("input", formatChanged);
    if (!$("input").value) $("input").value = settings.sample;
    changed();
    sendFormat();
  }

  fetch("/api/settings", { cache: "no-store", credentials: "omit" })
    .then((response) => response.json())
    .then(start)
    .catch((error) => {
      $("status").textContent = `Could not load the settings: ${error.message}`;
      body.dataset.state = "error";
    });
})();
"""

FAVICON = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="6" fill="#1d4ed8"/>
<path d="M9 20l5-5m-2-3l3-3a4 4 0 0 1 6 6l-3 3m-6-1l-3 3a4 4 0 0 0 6 6l3-3"
 stroke="#fff" stroke-width="2.5" fill="none" stroke-linecap="round"/></svg>
"""

FILES: dict[str, tuple[str, str]] = {
    "/": ("text/html; charset=utf-8", HTML),
    "/playground.css": ("text/css; charset=utf-8", CSS),
    "/preview.css": ("text/css; charset=utf-8", PREVIEW_CSS),
    "/playground.js": ("text/javascript; charset=utf-8", JS),
    "/favicon.svg": ("image/svg+xml", FAVICON),
}
