# SPDX-License-Identifier: MIT
"""Validate documents against a JSON Schema: segc's JSON outputs, or specs.

Usage: validate.py SCHEMA FILE...
       validate.py --verdicts SCHEMA FILE...

The schema's own "$schema" picks the draft (segc's schemas are 2020-12;
the SARIF 2.1.0 schema declares its own).  A FILE ending in .yaml or .yml
is read as YAML (a spec), any other as JSON.

Without --verdicts: every problem on stdout, "FILE: WHERE: WHY" (at most
five per file); exit status 0 if every FILE is valid, 1 if one is not, 2 if
a file cannot be read or parsed.

With --verdicts: one line per FILE, in order: "0<TAB>FILE" if it is valid,
"1<TAB>FILE<TAB>WHY" if the schema rejects it (WHY is the first reason),
"2<TAB>FILE<TAB>WHY" if it cannot be read or parsed (a bad case that fails
to load must not pass for "rejected").  Exit status 0 once every file has
its line, 2 if the schema itself cannot be used.

One process for every file: the interpreter and jsonschema start once.
Needs Debian's python3-jsonschema (and python3-yaml for specs): run with
/usr/bin/python3.
"""
import json
import sys

import jsonschema


def load(path):
    with open(path, encoding="utf-8") as f:
        if path.endswith((".yaml", ".yml")):
            import yaml
            return yaml.safe_load(f)
        return json.load(f)


def errors_of(validator, doc):
    return sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))


def where(e):
    return "/".join(str(p) for p in e.absolute_path) or "(top level)"


def main():
    args = sys.argv[1:]
    verdicts = args[:1] == ["--verdicts"]
    if verdicts:
        args = args[1:]
    if len(args) < 1:
        print("usage: validate.py [--verdicts] SCHEMA FILE...", file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    status = 0
    for path in args[1:]:
        try:
            doc = load(path)
        except Exception as e:  # OSError, ValueError, yaml.YAMLError
            if verdicts:
                print(f"2\t{path}\t" + " ".join(f"cannot load: {e}".split()))
                continue
            print(f"{path}: not readable: {e}")
            return 2
        errors = errors_of(validator, doc)
        if verdicts:
            why = " ".join(f"{where(errors[0])}: {errors[0].message}".split()) if errors else ""
            print(f"{1 if errors else 0}\t{path}" + (f"\t{why}" if why else ""))
            continue
        for e in errors[:5]:
            print(f"{path}: {where(e)}: {e.message[:300]}")
        if errors:
            status = 1
    return 0 if verdicts else status


if __name__ == "__main__":
    sys.exit(main())
