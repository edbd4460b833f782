# SPDX-License-Identifier: MIT
"""Validate segc specs (YAML) against schema/segc.schema.json.

Usage: validate.py SCHEMA FILE...

One line per FILE, in order: "0<TAB>FILE" if it is valid, "1<TAB>FILE<TAB>
WHY" if the schema rejects it (WHY is the first reason), "2<TAB>FILE<TAB>
WHY" if it cannot be read or is not YAML.  A bad case that fails to load
must not pass for "rejected", so run.sh treats status 2 as a failure in
both directions.  Exit status 0 once every file has its line (the
verdicts are in the lines), 2 if the schema itself cannot be used.

One process for every file: the interpreter and jsonschema start once.
Needs Debian's python3-yaml and python3-jsonschema.
"""
import json
import sys

import jsonschema
import yaml


def verdict(validator, spec_path):
    try:
        with open(spec_path, encoding="utf-8") as f:
            spec = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        return 2, f"cannot load: {e}"
    errors = sorted(validator.iter_errors(spec), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        return 0, ""
    where = "/".join(str(p) for p in errors[0].absolute_path) or "(top level)"
    return 1, f"{where}: {errors[0].message}"


def main():
    if len(sys.argv) < 3:
        print("usage: validate.py SCHEMA FILE...", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sys.argv[2:]:
        status, why = verdict(validator, path)
        why = " ".join(why.split())
        print(f"{status}\t{path}" + (f"\t{why}" if why else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
