# SPDX-License-Identifier: MIT
"""Check a SARIF log from segc beyond its schema.

Usage: sarif_check.py SEGC FILE.sarif [--cache FILE]

Checks that tool.driver.rules lists exactly the codes the results name, in
`segc rules --all` order (a log describes its own results; the whole table
is doc/rules.md), each with its default level, its class and help text equal
to what `segc rules --all` and `segc explain CODE` print; and that every
result's ruleIndex names the rule of its ruleId.  Problems go to standard
error, exit status 1.

With --cache FILE, what `segc rules`, `segc rules --all` and `segc explain`
print is read from FILE when it exists, else asked of SEGC and kept there:
a run of the tests asks once, not once per log (the same segc answers the
same).
"""
import json
import os
import subprocess
import sys


def segc_says(segc, cache):
    """What segc prints for `rules`, `rules --all` and `explain` of every code."""
    if cache and os.path.exists(cache):
        with open(cache, encoding="utf-8") as f:
            return json.load(f)

    def run(*args):
        return subprocess.run([segc, *args], capture_output=True, text=True, check=True).stdout

    says = {"rules": run("rules"), "all": run("rules", "--all"), "explain": {}}
    for l in says["all"].splitlines():
        if l.strip():
            says["explain"][l.split()[0]] = run("explain", l.split()[0])
    if cache:
        with open(cache + ".tmp", "w", encoding="utf-8") as f:
            json.dump(says, f)
        os.replace(cache + ".tmp", cache)
    return says


def main():
    segc, path = sys.argv[1], sys.argv[2]
    cache = sys.argv[sys.argv.index("--cache") + 1] if "--cache" in sys.argv[3:] else None
    log = json.load(open(path, encoding="utf-8"))
    problems = []
    says = segc_says(segc, cache)
    every = [(l.split()[0], l.split()[1], l.split()[2]) for l in says["all"].splitlines() if l.strip()]
    rule_names = {l.split()[0] for l in says["rules"].splitlines() if l.strip()}
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    named = {res["ruleId"] for res in run["results"] if "ruleId" in res}
    want = [name for name, _, _ in every if name in named]
    if ids != want:
        problems.append(f"tool.driver.rules is {ids}, not the codes the results name in `segc rules --all` order: {want}")
    known = {name: (cls, sev) for name, cls, sev in every}
    for r in rules:
        name = r["id"]
        cls, sev = known.get(name, ("?", "?"))
        want_cls = cls if name in rule_names else "front-end"
        if r["defaultConfiguration"]["level"] != {"fatal": "error"}.get(sev, sev):
            problems.append(f"rule {name}: level {r['defaultConfiguration']['level']}, `segc rules` says {sev}")
        if r.get("properties", {}).get("class") != want_cls:
            problems.append(f"rule {name}: class {r.get('properties', {}).get('class')}, `segc rules` says {want_cls}")
        if r.get("help", {}).get("text") != says["explain"].get(name):
            problems.append(f"rule {name}: help.text differs from `segc explain {name}`")
    for i, res in enumerate(run["results"]):
        if "ruleId" in res and (res.get("ruleIndex", -1) not in range(len(ids)) or ids[res["ruleIndex"]] != res["ruleId"]):
            problems.append(f"result {i}: ruleIndex {res.get('ruleIndex')} is not {res['ruleId']}")
    for p in problems:
        print(f"{path}: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
