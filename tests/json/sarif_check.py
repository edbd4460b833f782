"""Check a SARIF log from segc beyond its schema, and print it briefly.

Usage: sarif_check.py SEGC FILE.sarif [--brief]

Checks that tool.driver.rules starts with every rule of `segc rules`, in
that order, each with its default level and with help text equal to what
`segc explain RULE` prints; that the front-end codes that follow are
sorted and are not rules; and that every result's ruleIndex names the rule
of its ruleId.  Problems go to standard error, exit status 1.

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
    listed = subprocess.run([segc, "rules"], capture_output=True, text=True, check=True).stdout.splitlines()
    table = [(l.split()[0], l.split()[1]) for l in listed if l.strip()]
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    if ids[: len(table)] != [name for name, _ in table]:
        problems.append("tool.driver.rules does not start with `segc rules` in order")
    for (name, sev), r in zip(table, rules):
        if r["defaultConfiguration"]["level"] != sev:
            problems.append(f"rule {name}: level {r['defaultConfiguration']['level']}, `segc rules` says {sev}")
        explain = subprocess.run([segc, "explain", name], capture_output=True, text=True, check=True).stdout
        if r.get("help", {}).get("text") != explain:
            problems.append(f"rule {name}: help.text differs from `segc explain {name}`")
    extra = ids[len(table):]
    if extra != sorted(extra) or set(extra) & {name for name, _ in table}:
        problems.append(f"front-end codes not sorted or repeating rules: {extra}")
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
