#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --profile-html: one self-contained page. The page itself (no browser):
# nothing outside it (no script, no link, every picture a data: PNG that
# decodes), the source's text escaped and whole, a marker beside each
# decision and loop that --profile-json lists, with its efficiency; the
# report --profile prints. Then in headless Chromium: its DOM (--dump-dom)
# holds the source lines, the markers and no script, and its screenshot
# (1200x1600) is a non-blank PNG showing the maps' colours and the markers'.
# Exits 77 (ctest: skipped) after those first checks when no Chromium is
# installed (scripts/install-deps.sh installs it; CHROMIUM names another,
# CHROMIUM=none skips).
#   html.sh NPLUS1GEN
set -euo pipefail
tool=$1
dir=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$tool" "$dir/html.cl" --profile --global 4096 --profile-json "$out/p.json" \
    --profile-html "$out/p.html" >"$out/report.txt"
export PYTHONPATH="$dir"
check() { # check STAGE: the Python checks below, on the page or the browser's output
  python3 - "$1" "$out" "$dir/html.cl" <<'PY'
import base64, html.parser, json, os, struct, sys
from collections import Counter

stage, out, src_path = sys.argv[1:4]
page = open(os.path.join(out, "p.html"), encoding="utf-8").read()
prof = json.load(open(os.path.join(out, "p.json")))
source = open(src_path, encoding="utf-8").read().splitlines()
bad = []

def expect(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        bad.append(what)

class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.imgs, self.marks, self.code, self.pre = Counter(), [], [], [], []
        self.links, self.stack = [], []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] += 1
        for k in ("src", "href"):
            if k in a:
                self.links.append(a[k])
        if tag == "img":
            self.imgs.append(a)
        if tag == "span" and "eff" in a.get("class", "").split():
            self.marks.append(a)
        if tag not in ("img", "meta", "br", "link"):
            self.stack.append((tag, a.get("class", "")))
    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass
    def handle_data(self, data):
        if self.stack and self.stack[-1] == ("td", "code"):
            self.code.append(data)
        elif any(t == "pre" for t, _ in self.stack):
            self.pre.append(data)

def parse(text):
    p = Page()
    p.feed(text)
    p.close()
    return p

def check_markers(p, where):
    want = [(k["name"], c["line"], c["kind"], c) for k in prof["kernels"] for c in k["constructs"]]
    got = {(m.get("data-kernel"), int(m.get("data-line", 0)), m.get("data-kind")): m
           for m in p.marks}
    expect(len(p.marks) == len(want) and all(w[:3] in got for w in want),
           "%s: a marker for each of the %d decisions and loops --profile-json lists (%d)"
           % (where, len(want), len(p.marks)))
    for name, line, kind, c in want:
        m = got.get((name, line, kind))
        if m and kind == "loop":
            e = c["lane_iterations"] / c["issued_iterations"]
            expect(abs(float(m["data-efficiency"]) - e) < 1e-3,
                   "%s: loop line %d of %s: efficiency %s, the JSON's %.4f"
                   % (where, line, name, m["data-efficiency"], e))
    return got

def check_source(p, where):
    expect(p.code == [l for l in source if l] and len(p.code) == sum(1 for l in source if l),
           "%s: the source's %d lines, whole and unescaped back, in order" % (where, len(source)))
    expect(p.tags["script"] == 0, "%s: no script element (the source's <script> is text)"
           % where)

if stage == "page":
    p = parse(page)
    check_source(p, "page")
    expect(p.tags["link"] == 0 and p.tags["iframe"] == 0 and p.tags["object"] == 0,
           "page: no link, iframe or object")
    expect(all(l.startswith(("data:image/png;base64,", "#")) for l in p.links),
           "page: every src and href is a data: PNG or a place in the page (%d)" % len(p.links))
    expect(len(p.imgs) == 2 * len(prof["kernels"]),
           "page: two maps a kernel (%d pictures)" % len(p.imgs))
    for img in p.imgs:
        png = base64.b64decode(img["src"].split(",", 1)[1], validate=True)
        w, h = struct.unpack(">II", png[16:24])
        expect(png[:8] == b"\x89PNG\r\n\x1a\n" and (str(w), str(h)) ==
               (img["width"], img["height"]), "page: %s: a %dx%d PNG (%d bytes)"
               % (img["alt"], w, h, len(png)))
    check_markers(p, "page")
    report = open(os.path.join(out, "report.txt")).read().splitlines()
    pre = "".join(p.pre)
    kernel_lines = [l for l in report if not l.startswith(("profiling on", "wrote "))]
    expect(all(l in pre for l in kernel_lines),
           "page: the report --profile printed, every line (%d)" % len(kernel_lines))
    expect("&lt;script&gt;" in page and "&amp;&amp;" in page, "page: < and & escaped")
elif stage == "dom":
    dom = open(os.path.join(out, "dom.html"), encoding="utf-8").read()
    p = parse(dom)
    check_source(p, "browser DOM")
    marks = check_markers(p, "browser DOM")
    print("DOM: %d bytes, %d source lines, %d markers, %d pictures"
          % (len(dom), len(p.code), len(p.marks), len(p.imgs)))
elif stage == "shot":
    from pngread import read_png
    path = os.path.join(out, "shot.png")
    w, h, px, _ = read_png(path)
    c = Counter(px)
    ink = sum(n for colour, n in c.items() if colour != "ffffff")
    print("screenshot: %dx%d, %d bytes, %d colours, %.1f%% not white"
          % (w, h, os.path.getsize(path), len(c), 100.0 * ink / len(px)))
    expect((w, h) == (1200, 1600), "screenshot: 1200x1600")
    expect(len(c) > 50 and ink > len(px) // 50, "screenshot: not blank")
    expect(c["1f77b4"] > 2000 and c["ff7f0e"] > 2000,
           "screenshot: the first kernel's paths map drawn (its blue and orange)")
    marks = parse(page).marks
    colours = {m["style"].split("#")[1][:6] for m in marks}
    expect(all(c[col] > 20 for col in colours),
           "screenshot: each marker's efficiency colour shows (%s)" % ", ".join(sorted(colours)))
sys.exit(1 if bad else 0)
PY
}
check page
chrome=${CHROMIUM:-}
for c in chromium chromium-browser google-chrome; do
  [ -n "$chrome" ] || chrome=$(command -v "$c" || true)
done
if [ -z "$chrome" ] || ! command -v "$chrome" >/dev/null; then
  echo "SKIPPED: no chromium found (scripts/install-deps.sh installs it): the page was" \
       "checked, not its rendering"
  exit 77
fi
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$out/profile")
timeout 120 "$chrome" "${flags[@]}" --dump-dom "file://$out/p.html" >"$out/dom.html" 2>"$out/chrome.log"
check dom
timeout 120 "$chrome" "${flags[@]}" --screenshot="$out/shot.png" --window-size=1200,1600 \
    "file://$out/p.html" >>"$out/chrome.log" 2>&1
check shot
