# SPDX-License-Identifier: MIT
"""Every diagnostic code compiler/ can print is a line of compiler/rules.def.

Usage: codes.py [SEGC]

Finds the functions of compiler/ that take a `const char *code` parameter
(diag_add, the template engine's fail, ...), and the macros with a
parameter named `code` (error_at, fatal_at), and, at
every call of each, the argument in that place.  A string literal must be
a name of rules.def (RULE or CODE); anything else must be one of the few
pass-through expressions listed below, so a new way of passing a code fails
here until it is looked at.  An assignment of a literal to a `code` field is
checked the same way.  With SEGC, also checks that `segc rules --all` lists
exactly the names of rules.def and that `segc explain` knows every one.

Prints `ok   WHAT` or `FAIL WHAT: WHY` per check, then `N passed, M failed`.
"""
import glob
import re
import subprocess
import sys

SOURCES = sorted(glob.glob("compiler/*.[ch]") + glob.glob("compiler/*.re") + glob.glob("compiler/*.y"))
# Expressions that forward a code some caller already wrote (checked there).
PASS_THROUGH = {"code", "(code)", "g->code", "t->code", "lx.err_code", "rule_table[id].name", "NULL"}
# Functions that take the code of a diagnostic already made, to show it
# (map's diagnostics lines), not to make one.
READERS = {"diag_line"}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def table_names():
    text = strip_comments(open("compiler/rules.def", encoding="utf-8").read())
    names = re.findall(r'^RULE\(\w+,\s*"([^"]+)"', text, re.M)
    names += re.findall(r'^CODE\(\s*"([^"]+)"', text, re.M)
    return names


def code_functions(texts):
    """(file or None, name) -> index of its `const char *code` parameter;
    a file's own (static) functions are keyed by that file, the ones
    segc.h declares by None."""
    funcs = {}
    for path, text in texts.items():
        for m in re.finditer(r"\b(\w+)\s*\(([^;{)]*\bconst char \*code\b[^;{)]*)\)", text):
            if m.group(1) in READERS:
                continue
            params = [p.strip() for p in m.group(2).split(",")]
            for i, p in enumerate(params):
                if re.fullmatch(r"const char \*code", p):
                    funcs[(None if path.endswith(".h") else path, m.group(1))] = i
        # Function-like macros with a parameter named `code` (error_at).
        for m in re.finditer(r"^#define\s+(\w+)\(([^)]*)\)", text, re.M):
            params = [p.strip() for p in m.group(2).split(",")]
            if "code" in params:
                funcs[(None if path.endswith(".h") else path, m.group(1))] = params.index("code")
    return funcs


def split_args(text, start):
    """The arguments of the call whose '(' is at text[start]."""
    depth, args, cur, i = 0, [], "", start + 1
    while i < len(text):
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while text[j] != c:
                j += 2 if text[j] == "\\" else 1
            cur += text[i : j + 1]
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append(cur.strip())
                return args
            depth -= 1
        elif c == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
            i += 1
            continue
        cur += c
        i += 1
    return args


def scan(texts, funcs, table):
    """(number of places that pass a code, [(where, why)])."""
    problems = []
    calls = 0
    for path, text in texts.items():
        here = {n: i for (f, n), i in funcs.items() if f is None}
        here.update({n: i for (f, n), i in funcs.items() if f == path})
        for name, idx in here.items():
            for m in re.finditer(r"\b%s\s*\(" % re.escape(name), text):
                line = text.count("\n", 0, m.start()) + 1
                args = split_args(text, m.end() - 1)
                if any(re.fullmatch(r"const char \*code", a) for a in args):
                    continue  # the definition or a prototype
                if idx >= len(args):
                    problems.append((f"{path}:{line}", f"call of {name} has no argument {idx + 1}"))
                    continue
                arg = args[idx]
                calls += 1
                lit = re.fullmatch(r'"([^"\\]*)"', arg)
                if lit and lit.group(1) not in table:
                    problems.append((f"{path}:{line}", f"code \"{lit.group(1)}\" is not in compiler/rules.def"))
                elif not lit and arg not in PASS_THROUGH:
                    problems.append((f"{path}:{line}", f"{name} gets its code from `{arg}`: a literal from rules.def, please"))
        for m in re.finditer(r'\bcode\s*=\s*"([^"\\]*)"', text):
            line = text.count("\n", 0, m.start()) + 1
            calls += 1
            if m.group(1) not in table:
                problems.append((f"{path}:{line}", f"code \"{m.group(1)}\" is not in compiler/rules.def"))
    return calls, problems


def main():
    passed = failed = 0

    def ok(what):
        nonlocal passed
        passed += 1
        print(f"ok   {what}")

    def bad(what, why):
        nonlocal failed
        failed += 1
        print(f"FAIL {what}: {why}")

    names = table_names()
    table = set(names)
    if len(table) == len(names):
        ok(f"rules.def: {len(names)} names, none twice")
    else:
        bad("rules.def", "a name is listed twice")
    texts = {f: strip_comments(open(f, encoding="utf-8").read()) for f in SOURCES}
    funcs = code_functions(texts)
    for must in ("error_at", "fatal_at", "diag_add", "diag_vadd"):
        if (None, must) not in funcs:
            bad("code functions", f"{must} not found: the scan no longer understands compiler/")
    calls, problems = scan(texts, funcs, table)
    for where, why in problems:
        bad(where, why)
    # The scan itself must catch what it is for.
    planted = {"compiler/planted.c": 'void f(void)\n{\n    error_at(d, "no-such-code", p, "x");\n'
               '    diag_add(d, SEV_ERROR,\n             "nor-this-one", p, "y");\n    fatal_at(d, other, p, "z");\n}\n'}
    _, caught = scan(planted, funcs, table)
    if len(caught) == 3:
        ok("the scan catches an unknown code, over two lines, and a code from a variable")
    else:
        bad("the scan catches planted codes", f"caught {caught}")
    ok(f"{calls} places that pass a code, to {', '.join(sorted(set(n for _, n in funcs)))}")
    if len(sys.argv) > 1:
        segc = sys.argv[1]
        out = subprocess.run([segc, "rules", "--all"], capture_output=True, text=True).stdout
        listed = [l.split()[0] for l in out.splitlines() if l.strip()]
        if listed == names:
            ok("segc rules --all lists rules.def in order")
        else:
            bad("segc rules --all", "differs from rules.def")
        for n in names:
            r = subprocess.run([segc, "explain", n], capture_output=True, text=True)
            if r.returncode != 0 or not r.stdout.startswith(n + " ("):
                bad(f"segc explain {n}", f"exit {r.returncode}")
        ok("segc explain knows every code")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
