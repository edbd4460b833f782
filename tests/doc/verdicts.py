# SPDX-License-Identifier: MIT
"""What the Python checks of tests/doc share: the ok/FAIL lines the shell
parts count, and segc's --help texts read as commands and options."""
import re
import subprocess

fails = 0


def ok(what):
    print("ok   " + what)


def bad(what, why):
    global fails
    fails += 1
    print("FAIL %s: %s" % (what, why))


def check(what, cond, why):
    if cond:
        ok(what)
    else:
        bad(what, why)
    return cond


def help_of(segc, *args):
    """What `segc ARGS` prints (a failure when it does not exit 0)."""
    r = subprocess.run([segc, *args], capture_output=True, text=True)
    if r.returncode != 0:
        bad("segc %s" % " ".join(args), "exit %d" % r.returncode)
    return r.stdout


def commands(main_help):
    """The commands `segc --help` lists under 'commands:'."""
    out, on = [], False
    for line in main_help.splitlines():
        if line.strip() == "commands:":
            on = True
        elif on and not line.strip():
            break
        elif on:
            out.append(line.split()[0])
    return out


def options(helptext, values=True):
    """Options from the left column of option lines: '  -x, --long  text'.
    A metavariable is the page's business: -Wno-RULE is -Wno-, -Werror=RULE
    -Werror=, --color=... --color=, -MF stays; values=False drops the values
    an option lists too (--color=auto|always|never is --color=)."""
    found = []
    for line in helptext.splitlines():
        if not re.match(r"  -", line):
            continue
        left = re.split(r"\s{2,}", line.strip())[0]
        for m in re.finditer(r"(?:^|[\s,])(--?[A-Za-z][A-Za-z0-9-]*(?:=[^\s,]*)?)", left):
            opt = re.sub(r"(?<=[A-Za-z0-9][-=])[A-Z][A-Z_]*$", "", m.group(1))
            found.append(re.sub(r"=.*$" if not values else r"=\.\.\.$", "=", opt))
    return found
