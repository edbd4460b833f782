# SPDX-License-Identifier: MIT
"""Validate JSON documents against a JSON Schema.

Usage: validate.py SCHEMA FILE...

The schema's own "$schema" picks the draft (segc's schemas are 2020-12; the
SARIF 2.1.0 schema fetched by run.sh declares its own).  Exit status 0 if
every FILE is valid, 1 if one is not (each problem printed on stdout with
its JSON path), 2 if a file cannot be read or is not JSON.

Needs Debian's python3-jsonschema (run with /usr/bin/python3).
"""
import json
import sys

import jsonschema


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    status = 0
    for path in sys.argv[2:]:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: not JSON: {e}")
            return 2
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
        for e in errors[:5]:
            where = "/".join(str(p) for p in e.absolute_path) or "(top level)"
            print(f"{path}: {where}: {e.message[:300]}")
        if errors:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
