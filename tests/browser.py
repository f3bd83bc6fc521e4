"""The DOM a real browser builds: headless Chromium as the last judge of
what HTML means (tests skip, with the reason, where no Chromium is installed).

:func:`compare_in_browser` sends pairs (input, output) to one page that, for
each pair, sets ``div.innerHTML`` to both, replaces the ``a`` elements that
carry the marker attribute by their text, and compares the two DOMs (names,
namespaces, attributes, text, comments, template contents).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

# What this machine's headless Chromium needs (no sandbox as root; no connections of its own,
# which the closed network refuses); tests/cdp.py starts its live pages with these too.
HEADLESS_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
_FLAGS = [*HEADLESS_FLAGS, "--virtual-time-budget=600000"]  # (for --dump-dom: the page's scripts run to the end)

# The page's own script runs by its nonce; the policy blocks everything else
# (event handlers of the parsed inputs, image loads, navigation), so parsing
# hostile inputs in the live document cannot run them.
_PAGE = """<!doctype html><meta charset=utf-8>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-uts58'">
<body><pre id=result></pre>
<script type=application/json id=cases>%s</script>
<script nonce=uts58>
const MARKER = %s;
// Read through the prototypes: a parsed <form> can shadow its own properties
// (<input name=attributes>: DOM clobbering).
const get = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
const kids = get(Node.prototype, "childNodes"), type = get(Node.prototype, "nodeType");
const data = get(CharacterData.prototype, "data"), local = get(Element.prototype, "localName");
const ns = get(Element.prototype, "namespaceURI"), attributes = get(Element.prototype, "attributes");
const content = get(HTMLTemplateElement.prototype, "content");
const attrName = get(Attr.prototype, "name"), attrValue = get(Attr.prototype, "value");
function dump(node, strip) {
  const out = [];
  const addText = (s) => {
    if (out.length && out[out.length - 1][0] === "#text") out[out.length - 1][1] += s;
    else if (s) out.push(["#text", s]);
  };
  for (const c of kids.call(node)) {
    const t = type.call(c);
    if (t === 3) addText(data.call(c));
    else if (t === 8) out.push(["#comment", data.call(c)]);
    else if (t === 1) {
      const attrs = [...attributes.call(c)].map(a => [attrName.call(a), attrValue.call(a)]).sort();
      const children = kids.call(c);
      if (strip && local.call(c) === "a" && ns.call(c) === "http://www.w3.org/1999/xhtml"
          && attrs.some(([n]) => n === MARKER) && children.length === 1 && type.call(children[0]) === 3) {
        const text = data.call(children[0]);
        strip.push([(attrs.find(([n]) => n === "href") || ["", ""])[1], text]);
        addText(text);
        continue;
      }
      const tpl = c instanceof HTMLTemplateElement ? dump(content.call(c), strip) : [];
      out.push([ns.call(c), local.call(c), attrs, dump(c, strip), tpl]);
    } else if (t === 10) out.push(["#doctype", c.name, c.publicId, c.systemId]);
    else out.push(["#" + t]);
  }
  return out;
}
const cases = JSON.parse(document.getElementById("cases").textContent);
const failures = [];
let links = 0;
// Scripting on: elements of this document (a browser's innerHTML).  Off: an
// inert document, as sanitizers and server-side parsers read HTML.
const SCRIPTING = %s;
const doc = SCRIPTING ? document : document.implementation.createHTMLDocument("");
// A whole document ("#document" context): written into a frame of this page
// (scripting on; the frame keeps this page's policy) or read by DOMParser
// (scripting off); its mode (quirks or not) is part of what is compared.
const frame = document.createElement("iframe");
document.body.appendChild(frame);
function page(html, strip) {
  let d;
  if (SCRIPTING) { d = frame.contentDocument; d.open(); d.write(html); d.close(); }
  else d = new DOMParser().parseFromString(html, "text/html");
  return JSON.stringify([d.compatMode, dump(d, strip)]);
}
for (const [id, context, input, output] of cases) {
  const found = [];
  let before, after;
  if (context === "#document") {
    before = page(input, null);
    after = page(output, found);
  } else {
    const a = doc.createElement(context), b = doc.createElement(context);
    a.innerHTML = input;
    b.innerHTML = output;
    before = JSON.stringify(dump(a, null));
    after = JSON.stringify(dump(b, found));
  }
  links += found.length;
  if (before !== after || found.some(([href]) => !/^(https?|ftp|mailto):/.test(href))) failures.push(id);
}
document.getElementById("result").textContent = JSON.stringify({checked: cases.length, links, failures});
</script>
"""


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    reason = "no Chromium installed (Debian: apt-get install chromium); the browser check needs one"
    if os.environ.get("UTS58_REQUIRE_BROWSER"):
        pytest.fail(reason + " and UTS58_REQUIRE_BROWSER is set (.ci/run sets it)")
    pytest.skip(reason)


def chromium_env(workdir: Path) -> dict[str, str]:
    """The environment Chromium runs in: ours, with its home and XDG folders
    in ``workdir`` (issue 35), so that it neither reads the machine user's
    configuration nor writes its crash reports and caches there."""
    env = dict(os.environ)
    for name, sub in (("HOME", "home"), ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache")):
        (workdir / sub).mkdir(parents=True, exist_ok=True)
        env[name] = str(workdir / sub)
    return env


def compare_in_browser(
    cases: list[tuple[str, str, str, str]], marker: str, *, scripting: bool = True
) -> dict[str, Any]:
    """cases: (id, context element or "#document", input, output).  Returns {"checked",
    "links", "failures": [ids whose output DOM is not the input DOM plus
    marked links with http(s)/ftp/mailto hrefs (the default schemes)]}."""
    browser = chromium()
    data = json.dumps(cases).replace("<", "\\u003c")  # nothing in the JSON can end the script element
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "check.html"
        page.write_text(_PAGE % (data, json.dumps(marker), json.dumps(scripting)), encoding="utf-8")
        done = subprocess.run(
            [browser, *_FLAGS, f"--user-data-dir={tmp}/profile", "--dump-dom", page.as_uri()],
            env=chromium_env(Path(tmp)),
            capture_output=True,
            timeout=600,
            check=False,
        )
    dom = done.stdout.decode("utf-8", "replace")
    start = dom.find('<pre id="result">')
    end = dom.find("</pre>", start)
    if start < 0 or end < 0:
        raise AssertionError(f"Chromium gave no result (exit {done.returncode}): {done.stderr[-2000:]!r}")
    text = dom[start + len('<pre id="result">') : end]
    result: dict[str, Any] = json.loads(text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
    return result
