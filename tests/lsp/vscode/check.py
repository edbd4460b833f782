# SPDX-License-Identifier: MIT
"""The VS Code extension's files against each other and against doc/editors.md.

    python3 tests/lsp/vscode/check.py EXT DOC MODULES [VSIX]

EXT is a copy of editors/vscode, DOC doc/editors.md, MODULES
the node_modules the .vsix ships (the cached npm ci of EXT's lock), VSIX
the package vsce built from EXT.  One line per check, tab-separated:
"ok WHAT" or "FAIL WHAT WHY"; exit 1 if any failed, 2 on a usage error.
"""
import json
import os
import re
import sys
import zipfile

EDITORS = "## VS Code"
# The settings the extension must have, with their type and default.
SETTINGS = {
    "segc.path": ("string", "segc"),
    "segc.args": ("array", []),
    "segc.includeDirs": ("array", []),
    "segc.trace.server": ("string", "off"),
}
# What the .vsix may hold besides the modules, and must.
PACKAGED = {"extension/package.json", "extension/extension.js", "extension/README.md",
            "extension/LICENSE.txt"}
ENVELOPE = {"[Content_Types].xml", "extension.vsixmanifest"}

failed = False


def check(what, cond, why=""):
    global failed
    if cond:
        print(f"ok\t{what}")
    else:
        failed = True
        print(f"FAIL\t{what}\t{why}")


def version_tuple(v):
    return tuple(int(x) for x in re.findall(r"\d+", v)[:3])


def section(text, title):
    """The lines of the ## section TITLE, and the title of the one before."""
    lines = text.split("\n")
    heads = [i for i, l in enumerate(lines) if l.startswith("## ")]
    for n, i in enumerate(heads):
        if lines[i] == title:
            end = heads[n + 1] if n + 1 < len(heads) else len(lines)
            return "\n".join(lines[i:end]), lines[heads[n - 1]] if n > 0 else None
    return None, None


# A `segc.x` that ends so is a file (segc.vsix, segc.schema.json), not a setting.
FILES = {"vsix", "yaml", "yml", "json", "h", "c", "1", "5", "bash", "exe", "log"}


def mentioned(text):
    """Every `segc.x.y` between backquotes (in code spans and blocks)."""
    names = set()
    for span in re.findall(r"`([^`]*)`", text):
        for name in re.findall(r"\bsegc(?:\.[A-Za-z0-9]+)+", span):
            if name.rsplit(".", 1)[1] not in FILES:
                names.add(name)
    return names


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__.strip().split("\n")[2].strip(), file=sys.stderr)
        return 2
    ext, readme, modules = argv[1:4]
    vsix = argv[4] if len(argv) == 5 else None
    pkg = json.load(open(os.path.join(ext, "package.json"), encoding="utf-8"))
    lock = json.load(open(os.path.join(ext, "package-lock.json"), encoding="utf-8"))
    source = open(os.path.join(ext, "extension.js"), encoding="utf-8").read()

    # package.json: identity, entry point, activation.
    for key, want in (("name", "segc"), ("publisher", "segc"), ("license", "MIT"),
                      ("main", "extension.js")):
        check(f"package.json {key} is {want!r}", pkg.get(key) == want, f"it is {pkg.get(key)!r}")
    check("package.json has a repository", bool(pkg.get("repository")), "no repository")
    check("package.json activates on YAML", "onLanguage:yaml" in pkg.get("activationEvents", []),
          f"activationEvents {pkg.get('activationEvents')}")
    check("LICENSE is the tree's", os.path.isfile(os.path.join(ext, "LICENSE")) and
          open(os.path.join(ext, "LICENSE"), "rb").read() ==
          open(os.path.join(os.path.dirname(os.path.abspath(readme)), "..", "LICENSE"), "rb").read(),
          "editors/vscode/LICENSE differs from LICENSE")

    # Dependencies: exact versions, the lock's, and nothing vsce needs.
    deps = pkg.get("dependencies", {})
    check("runtime dependencies are pinned exactly",
          deps and all(re.fullmatch(r"\d+\.\d+\.\d+", v) for v in deps.values()), f"{deps}")
    check("package-lock.json matches the dependencies",
          lock.get("packages", {}).get("", {}).get("dependencies") == deps and
          all(lock["packages"].get(f"node_modules/{d}", {}).get("version") == v
              for d, v in deps.items()), "run npm install --package-lock-only in editors/vscode")
    check("vsce is not a runtime dependency", not any("vsce" in d for d in deps),
          f"dependencies {sorted(deps)}")
    lc = os.path.join(modules, "vscode-languageclient", "package.json")
    if os.path.isfile(lc):
        lcp = json.load(open(lc, encoding="utf-8"))
        need = lcp.get("engines", {}).get("vscode", "")
        have = pkg.get("engines", {}).get("vscode", "")
        check(f"engines.vscode {have} covers vscode-languageclient {lcp.get('version')}'s {need}",
              have and need and version_tuple(have) >= version_tuple(need), "raise engines.vscode")
        check("the cached vscode-languageclient is the pinned one",
              lcp.get("version") == deps.get("vscode-languageclient"),
              f"cache has {lcp.get('version')}: run sh tests/deps.sh --install")
    else:
        check("vscode-languageclient is in the cache", False, f"no {lc}")

    # Debian 12's Node.js is 18: every locked package must run on it, except
    # the ones only `vsce publish` loads (Azure sign-in), which packaging
    # never requires.  undici 7 (through cheerio 1.1) needs Node.js 20 and
    # broke `vsce package` there; tools/package.json holds cheerio at 1.0.0.
    publish_only = ("node_modules/@azure/", "node_modules/@typespec/ts-http-runtime")
    for name in ("package-lock.json", os.path.join("tools", "package-lock.json")):
        locked = json.load(open(os.path.join(ext, name), encoding="utf-8")).get("packages", {})
        newer = sorted(f"{k[len('node_modules/'):]} {v.get('version')} (node {v['engines']['node']})"
                       for k, v in locked.items()
                       if k and not k.startswith(publish_only) and isinstance(v.get("engines"), dict)
                       and re.search(r">=?\s*v?(19|[2-9]\d)", str(v["engines"].get("node", ""))))
        check(f"{name}: every package runs on Debian 12's Node.js 18", not newer, "; ".join(newer))

    # The settings: the four the README documents, with their defaults.
    props = pkg.get("contributes", {}).get("configuration", {}).get("properties", {})
    commands = {c.get("command") for c in pkg.get("contributes", {}).get("commands", [])}
    for name, (typ, default) in SETTINGS.items():
        p = props.get(name)
        check(f"setting {name} is declared ({typ}, default {default!r})",
              p is not None and p.get("type") == typ and p.get("default") == default,
              f"declared as {p}")
    tr = props.get("segc.trace.server", {})
    check("segc.trace.server is off|messages|verbose", tr.get("enum") == ["off", "messages", "verbose"],
          f"enum {tr.get('enum')}")
    for name, p in props.items():
        check(f"setting {name} has a description", bool(p.get("description") or
                                                         p.get("markdownDescription")), "none")

    # extension.js reads each setting it owns (segc.trace.server is read by
    # vscode-languageclient under the client's id; tests/lsp/vscode/activate.js
    # checks that id).
    for name in props:
        key = name[len("segc."):]
        if key == "trace.server":
            continue
        check(f"extension.js reads {name}", re.search(r"\.get\(\s*'" + re.escape(key) + "'", source),
              f"no .get('{key}' in extension.js")

    # doc/editors.md: the section exists, and it and the extension's
    # README name exactly the settings there are.
    text = open(readme, encoding="utf-8").read()
    body, before = section(text, EDITORS)
    check(f"doc/editors.md has '{EDITORS}'", body is not None, "no such section")
    if body is not None:
        for what, doc in (("doc/editors.md's VS Code section", body),
                          ("editors/vscode/README.md",
                           open(os.path.join(ext, "README.md"), encoding="utf-8").read())):
            names = mentioned(doc)
            for name in props:
                check(f"{what} documents {name}", name in names, "not mentioned in backquotes")
            for name in sorted(names - set(props) - commands):
                check(f"{what} mentions {name}", False, "no such setting in package.json")

    # The package: the extension's files, the modules its lock installs and
    # nothing else (no tools/, no lock, no scratch).
    if vsix is not None:
        try:
            names = set(zipfile.ZipFile(vsix).namelist())
        except (OSError, zipfile.BadZipFile) as e:
            check("the .vsix is a zip", False, str(e))
            return 1
        check("the .vsix is a zip", True)
        files = {n for n in names if not n.endswith("/")}
        inside = {n for n in files if not n.startswith("extension/node_modules/")}
        for n in sorted(PACKAGED | ENVELOPE):
            check(f"the .vsix holds {n}", n in files, "missing")
        for n in sorted(inside - PACKAGED - ENVELOPE):
            check(f"the .vsix holds no {n}", False, "not a file of the extension: .vscodeignore should leave it out")
        check("the .vsix holds vscode-languageclient/node",
              "extension/node_modules/vscode-languageclient/node.js" in files and
              "extension/node_modules/vscode-languageclient/lib/node/main.js" in files, "missing")
        shipped = set()
        for n in files:
            m = re.match(r"extension/node_modules/((?:@[^/]+/)?[^/]+)/", n)
            if m:
                shipped.add(m.group(1))
        locked = {k[len("node_modules/"):] for k, v in lock.get("packages", {}).items()
                  if k.startswith("node_modules/") and "/node_modules/" not in k[len("node_modules/"):]
                  and not v.get("dev")}
        check("the .vsix ships exactly the locked modules", shipped == locked,
              f"extra {sorted(shipped - locked)}, missing {sorted(locked - shipped)}")
        junk = sorted(n for n in files if re.search(r"(\.vsix$|\.log$|\.map$|/tools/|/\.vscode(-test)?/)", n) or
                      re.search(r"^extension/(test|scratch)/", n))
        check("the .vsix holds no scratch, test or log files", not junk, f"{junk[:5]}")
        try:
            packed = json.loads(zipfile.ZipFile(vsix).read("extension/package.json"))
            check("the packaged package.json is the source's",
                  packed.get("contributes") == pkg.get("contributes") and packed.get("main") == pkg.get("main"),
                  "contributes or main differ")
        except (KeyError, ValueError) as e:
            check("the packaged package.json is the source's", False, str(e))

    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
