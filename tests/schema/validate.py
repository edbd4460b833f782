# SPDX-License-Identifier: MIT
"""Validate one segc spec (YAML) against schema/segc.schema.json.

Usage: validate.py SCHEMA FILE

Exit status: 0 if FILE is valid, 1 if the schema rejects it (the first
reason is printed on stdout), 2 if FILE cannot be read or is not YAML.
A bad case that fails to load must not pass for "rejected", so run.sh
treats status 2 as a failure in both directions.

Needs Debian's python3-yaml and python3-jsonschema.
"""
import json
import sys

import jsonschema
import yaml


def main():
    schema_path, spec_path = sys.argv[1], sys.argv[2]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    try:
        with open(spec_path, encoding="utf-8") as f:
            spec = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        print(f"cannot load: {e}".replace("\n", " "))
        return 2

    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(spec), key=lambda e: list(e.absolute_path))
    if not errors:
        return 0
    where = "/".join(str(p) for p in errors[0].absolute_path) or "(top level)"
    print(f"{where}: {errors[0].message}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
