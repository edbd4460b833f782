# SPDX-License-Identifier: MIT
"""Check a SARIF log from segc beyond its schema, and print it briefly.

Usage: sarif_check.py SEGC FILE.sarif [--brief]

Checks that tool.driver.rules starts with every rule of `segc rules`, in
that order, each with its default level, its class and help text equal to
what `segc explain RULE` prints; that the other codes that follow are codes
of `segc rules --all`, in its order, each with its level and its help from
`segc explain`; and that every result's ruleIndex names the rule of its
ruleId.  Problems go to standard error, exit status 1.

With --brief, prints the log with the rules.def part of tool.driver.rules
cut to the rule ids (the part every log repeats), for golden files that
stay short; the full table is compared once, in one golden file.
"""
import json
import subprocess
import sys


def main():
    segc, path = sys.argv[1], sys.argv[2]
    brief = "--brief" in sys.argv[3:]
    log = json.load(open(path, encoding="utf-8"))
    problems = []
    listed = subprocess.run([segc, "rules", "--all"], capture_output=True, text=True, check=True).stdout.splitlines()
    every = [(l.split()[0], l.split()[1], l.split()[2]) for l in listed if l.strip()]
    nrules = len(subprocess.run([segc, "rules"], capture_output=True, text=True, check=True).stdout.splitlines())
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
        explain = subprocess.run([segc, "explain", name], capture_output=True, text=True, check=True).stdout
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
