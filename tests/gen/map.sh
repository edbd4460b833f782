#!/bin/sh
# SPDX-License-Identifier: MIT
# Map tests: `segc map` looked at the way a person would look at it.
#
# For every case in tests/gen/map/expect/ (every sample, and tests/gen/map/broken.yaml
# and qs4.yaml, boards that break rules on purpose):
#   - segc map to .svg, .html and .md, with the expected exit status;
#   - the .md rendered by cmark-gfm holds the HTML page's tables and
#     diagnostics, cell by cell (tests/gen/map/check.py md);
#   - the SVG is well-formed XML (python3's xml.etree) and every shape in it
#     has a tooltip; the page holds the same SVG and refers to nothing outside;
#   - the same command twice gives the same bytes, and an unchanged map
#     keeps its mtime;
#   - the page is loaded in headless Chromium with a measuring script added,
#     and what Chromium laid out is checked against values worked out by hand
#     (tests/gen/map/check.py dom): every segment's label is drawn, segments drawn
#     to scale have heights proportional to their sizes (1%), tiny ones are
#     drawn taller and say so, BAR windows are proportional within their lane,
#     exactly the segments and BARs a rule fires on are outlined in red with
#     the rule named, no label overlaps another, no text leaves its shape or
#     the picture.
# Plus the usage errors (exit 2), a spec that cannot be resolved (exit 1, no
# file), and one screenshot that must come out as a PNG.
#
# Without Chromium the rendered checks cannot run: that is reported as one
# failure, never as a pass.  The sanitizer pass (SEGC_SAN=1) repeats every
# segc run but not Chromium's rendering of the same bytes.
#
#   sh tests/gen/run.sh build/segc build "" map
set -u
SEGC=${1:?usage: map.sh path/to/segc BUILD_DIR}
B=${2:?usage: map.sh path/to/segc BUILD_DIR}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin map
top=$(pwd)
case $SEGC in /*) ;; *) SEGC=$top/$SEGC ;; esac
PY=/usr/bin/python3
CHECK="$PY tests/gen/map/check.py"
out=$top/$B/map-test
rm -rf "$out"
mkdir -p "$out"

CHROMIUM=""
for c in chromium chromium-browser; do
    command -v $c >/dev/null 2>&1 && { CHROMIUM=$c; break; }
done
render=yes
sanitized && render=""
CMARK=""
have cmark-gfm && CMARK=cmark-gfm
# Everything that could reach a network or write outside the scratch profile is off.
chrome() {
    prof=$(mktemp -d "$tmp/chromium.XXXXXX")
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --disable-default-apps --disable-extensions --user-data-dir="$prof" "$@" 2>"$out/chromium.err"
    rc=$?
    rm -rf "$prof"
    return $rc
}

for exp in tests/gen/map/expect/*.txt; do
    name=$(basename "$exp" .txt)
    spec=$(sed -n 's/^spec //p' "$exp")
    want=$(sed -n 's/^exit //p' "$exp")
    svg=$out/$name.svg
    html=$out/$name.html
    "$SEGC" map "$spec" -o "$svg" 2>"$out/$name.err"
    rc=$?
    "$SEGC" map "$spec" -o "$html" 2>>"$out/$name.err"
    rc2=$?
    if [ "$rc" != "$want" ] || [ "$rc2" != "$want" ] || [ ! -s "$svg" ] || [ ! -s "$html" ]; then
        bad "$name: segc map" "exit $rc/$rc2, expected $want; $(head -n 3 "$out/$name.err")"
        continue
    fi
    ok "$name: segc map -o .svg and .html (exit $want)"

    if r=$($CHECK xml "$svg"); then ok "$name: well-formed SVG, a tooltip on every shape"; else bad "$name: xml" "$r"; fi
    if r=$($CHECK same "$svg" "$html"); then ok "$name: the page holds the same SVG, self-contained"; else bad "$name: html" "$r"; fi

    "$SEGC" map "$spec" -o "$out/$name.again.svg" 2>/dev/null
    if cmp -s "$svg" "$out/$name.again.svg"; then ok "$name: deterministic"; else bad "$name: deterministic" "two runs differ"; fi

    # The Markdown page, rendered by cmark-gfm (GitHub's dialect: tables,
    # strikethrough, autolinks), says what the HTML page says.
    md=$out/$name.md
    "$SEGC" map "$spec" -o "$md" 2>/dev/null
    rc=$?
    if [ "$rc" != "$want" ] || [ ! -s "$md" ]; then
        bad "$name: segc map -o .md" "exit $rc, expected $want"
    elif [ -z "$CMARK" ]; then
        bad "$name: Markdown" "cmark-gfm not found (Debian package cmark-gfm, see tests/deps.sh)"
    elif ! cmark-gfm -e table -e strikethrough -e autolink "$md" >"$md.html" 2>"$out/cmark.err"; then
        bad "$name: cmark-gfm" "$(head -n 3 "$out/cmark.err")"
    elif r=$($CHECK md "$md.html" "$html"); then
        ok "$name: the Markdown page, as cmark-gfm renders it, has the page's tables and diagnostics"
    else
        bad "$name: the Markdown page as rendered" "$r"
    fi

    if [ -z "$CHROMIUM" ] || [ -z "$render" ]; then
        continue
    fi
    $CHECK inject "$html" "$out/$name.measure.html"
    if ! chrome --window-size=1400,1000 --dump-dom "file://$out/$name.measure.html" >"$out/$name.dom.html"; then
        bad "$name: chromium" "$(tail -n 3 "$out/chromium.err")"
        continue
    fi
    if r=$($CHECK dom "$exp" "$out/$name.dom.html"); then
        ok "$name: as drawn by Chromium: labels, proportions, red outlines, no overlaps"
    else
        bad "$name: as drawn by Chromium" "$r"
    fi
done

if [ -z "$CHROMIUM" ] && [ -n "$render" ]; then
    bad "map: chromium not found (Debian package chromium, see tests/deps.sh)" "the rendered maps were not checked"
fi

# An unchanged map is not rewritten (its mtime is kept), like build outputs.
f=$out/discrete.svg
touch -d '2001-01-01 00:00:00' "$f"
"$SEGC" map samples/discrete.yaml -o "$f" 2>/dev/null
if [ "$(date -r "$f" +%Y)" = 2001 ]; then ok "unchanged map keeps its mtime"; else bad "unchanged map keeps its mtime"; fi

# Usage errors: exit 2, nothing written.
usage() {
    what=$1
    shift
    "$SEGC" map "$@" >/dev/null 2>"$out/usage.err"
    rc=$?
    if [ $rc = 2 ] && grep -q "segc:" "$out/usage.err"; then ok "usage: $what (exit 2)"; else bad "usage: $what" "exit $rc"; fi
}
usage "-o FILE.png" samples/discrete.yaml -o "$out/x.png"
usage "-o FILE.markdown" samples/discrete.yaml -o "$out/x.markdown"
usage "-o without an extension" samples/discrete.yaml -o "$out/x"
usage "no -o" samples/discrete.yaml
usage "two specs" samples/discrete.yaml samples/agp.yaml -o "$out/x.svg"
usage "an unknown option" samples/discrete.yaml --annotate -o "$out/x.svg"
if [ -e "$out/x.png" ] || [ -e "$out/x" ] || [ -e "$out/x.svg" ] || [ -e "$out/x.markdown" ]; then bad "usage errors write nothing"; else ok "usage errors write nothing"; fi

# A segment whose value fails to evaluate is drawn empty, outlined with its
# error (the rest of the board is still worth seeing); exit 1.
printf 'segc: 1\nboard: { name: x, wddm: "1.3", arch: x64 }\nsegments:\n  - { name: a, kind: memory, size: 1GiB + }\n' >"$out/unresolved.yaml"
"$SEGC" map "$out/unresolved.yaml" -o "$out/unresolved.svg" 2>"$out/unresolved.err"
rc=$?
if [ $rc = 1 ] && grep -q 'expr-syntax' "$out/unresolved.svg" 2>/dev/null && grep -q "unresolved.yaml:4:" "$out/unresolved.err"; then
    ok "unevaluated segment: diagnostics, exit 1, drawn with its error"
else
    bad "unevaluated segment" "exit $rc; $(head -n 2 "$out/unresolved.err")"
fi
# A spec that cannot be read into a model (a segment without its kind):
# its diagnostics, exit 1, no picture.
printf 'segc: 1\nboard: { name: x, wddm: "1.3", arch: x64 }\nsegments:\n  - { name: a, size: 1GiB }\n' >"$out/shapeless.yaml"
"$SEGC" map "$out/shapeless.yaml" -o "$out/shapeless.svg" 2>"$out/shapeless.err"
rc=$?
if [ $rc = 1 ] && [ ! -e "$out/shapeless.svg" ] && grep -q "shapeless.yaml:4:" "$out/shapeless.err"; then
    ok "unreadable spec: diagnostics, exit 1, nothing drawn"
else
    bad "unreadable spec" "exit $rc; $(head -n 2 "$out/shapeless.err")"
fi
"$SEGC" map "$out/missing.yaml" -o "$out/missing.svg" 2>/dev/null
rc=$?
if [ $rc = 2 ] && [ ! -e "$out/missing.svg" ]; then ok "missing spec: exit 2"; else bad "missing spec" "exit $rc"; fi
"$SEGC" map samples/discrete.yaml -o "$out/no/such/dir/m.svg" 2>"$out/io.err"
rc=$?
if [ $rc = 2 ] && grep -q "m.svg" "$out/io.err"; then ok "unwritable output: exit 2 naming the file"; else bad "unwritable output" "exit $rc"; fi
if "$SEGC" map --help | grep -q "FILE.svg|FILE.html|FILE.md" && "$SEGC" help map | grep -q "^usage: segc map"; then
    ok "map --help"
else
    bad "map --help"
fi

# What a person would see: a screenshot must come out.
if [ -n "$CHROMIUM" ] && [ -n "$render" ]; then
    if chrome --hide-scrollbars --window-size=1000,900 --screenshot="$out/discrete.png" "file://$out/discrete.svg" >/dev/null &&
        [ "$(head -c 8 "$out/discrete.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
        ok "screenshot of discrete.svg is a PNG"
    else
        bad "screenshot" "$(tail -n 3 "$out/chromium.err")"
    fi
fi

suite_end
