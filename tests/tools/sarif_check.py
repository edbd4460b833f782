# SPDX-License-Identifier: MIT
"""Check a SARIF log from segc beyond its schema, and print it briefly.

Usage: sarif_check.py SEGC FILE.sarif [--brief] [--cache FILE]

Checks that tool.driver.rules starts with every rule of `segc rules`, in
that order, each with its default level, its class and help text equal to
what `segc explain RULE` prints; that the other codes that follow are codes
of `segc rules --all`, in its order, each with its level and its help from
`segc explain`; and that every result's ruleIndex names the rule of its
ruleId.  Problems go to standard error, exit status 1.

With --brief, prints the log with the rules.def part of tool.driver.rules
cut to the rule ids (the part every log repeats), for golden files that
stay short; the full table is compared once, in one golden file.

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
    brief = "--brief" in sys.argv[3:]
    cache = sys.argv[sys.argv.index("--cache") + 1] if "--cache" in sys.argv[3:] else None
    log = json.load(open(path, encoding="utf-8"))
    problems = []
    says = segc_says(segc, cache)
    listed = says["all"].splitlines()
    every = [(l.split()[0], l.split()[1], l.split()[2]) for l in listed if l.strip()]
    nrules = len(says["rules"].splitlines())
    table = every[:nrules]
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    if ids[: len(table)] != [name for name, _, _ in table]:
        problems.append("tool.driver.rules does not start with `segc rules` in order")
    extra = ids[len(table):]
    order = [name for name, _, _ in every[nrules:]]
    if [c for c in order if c in extra] != extra:
        problems.append(f"other codes not in `segc rules --all` order, or not codes: {extra}")
    known = {name: (cls, sev) for name, cls, sev in every}
    for r in rules:
        name = r["id"]
        cls, sev = known.get(name, ("?", "?"))
        want_cls = cls if name in dict((n, 1) for n, _, _ in table) else "front-end"
        if r["defaultConfiguration"]["level"] != {"fatal": "error"}.get(sev, sev):
            problems.append(f"rule {name}: level {r['defaultConfiguration']['level']}, `segc rules` says {sev}")
        if r.get("properties", {}).get("class") != want_cls:
            problems.append(f"rule {name}: class {r.get('properties', {}).get('class')}, `segc rules` says {want_cls}")
        explain = says["explain"].get(name)
        if r.get("help", {}).get("text") != explain:
            problems.append(f"rule {name}: help.text differs from `segc explain {name}`")
    for i, res in enumerate(run["results"]):
        if "ruleId" in res and ids[res.get("ruleIndex", -1)] != res["ruleId"]:
            problems.append(f"result {i}: ruleIndex {res.get('ruleIndex')} is not {res['ruleId']}")
    for p in problems:
        print(f"{path}: {p}", file=sys.stderr)
    if brief:
        run["tool"]["driver"]["rules"] = ids[: len(table)] + rules[len(table):]
        sys.stdout.write(json.dumps(log, indent=2, ensure_ascii=False) + "\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
