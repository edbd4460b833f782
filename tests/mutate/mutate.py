#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""mutate.py - segc's mutation campaign: would the tests notice a change?

    python3 tests/mutate/mutate.py --src 'compiler/*.c templates/*.frag' \\
        --build 'all' --quick 'unit cli' --test 'test' [options]

Every file the --src globs name is read as C-like text (comments, string
and character literals are skipped) and every single-line change of the
kinds below is listed; a seeded sample of them is run:

    rel     a relational operator flipped: < <=, > >=, == !=
    const   an integer constant off by one (n+1, n-1; in the size of an
            array a declaration declares only smaller: larger behaves alike)
    plus1   `+ 1` or `- 1` left out, or made `+ 2` / `- 2`
    logic   && and || exchanged
    cond    one operand of && or || dropped
    swap    two neighbouring arguments of a call exchanged (only where
            both have the same type: the compiler is asked first)
    shift   the amount of a shift off by one
    stmt    a statement on a line of its own deleted (but an assertion:
            one that holds changes nothing when it is gone)

Each mutant is written into a scratch copy of the tree (a copy of a
pristine base that was built once; the tree it came from is only read),
built (--build; a mutant that does not compile is counted apart), and
compared with the base: when every ELF file the build remade is the same
as the base's without its debug information, the mutant is equivalent by
construction (counted apart, and shown) - unless its line is inside an
#if group, which another build (segc.exe) may compile where this one does
not.  Otherwise the --quick targets
run one after another until one fails (the mutant is killed); the
survivors then run --test in a copy of a base that has passed --test
itself.  A target that kills a mutant is first run on the pristine base
(once): a target that fails there would kill everything, and stops the
campaign.

Equivalent mutants that the compiler cannot prove so are listed, each
with its reason, in the --equivalent file (see its header); a listed
mutant is counted apart, and an entry that matches no mutant of the tree
is reported and fails the run, so the list cannot go stale silently.

Output: one line per mutant as it ends, then the survivors (file:line,
operator, the line before and after), the rates, and with --goal-quick
and --goal-test the goals (the exit status is 1 when a goal is missed,
an entry is stale, or a survivor is left under --fail-on-survivor).
"""

import argparse
import glob
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

TIMEOUT = -1       # run()'s status for a command that ran out of time
INTERRUPTED = -2   # and for one the campaign's end stopped
OPS = ('rel', 'const', 'plus1', 'logic', 'cond', 'swap', 'shift', 'stmt')

# ---- reading C-like text -------------------------------------------------

PUNCT = sorted(['<<=', '>>=', '...', '->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=',
                '&&', '||', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '##', '::='],
               key=len, reverse=True)
INT_RE = re.compile(r'(0[xX])([0-9a-fA-F]+)([uUlL]*)\Z|(0[0-7]*|[1-9][0-9]*)([uUlL]*)\Z')
CHAR_RE = re.compile(r"'(\\[^']{1,4}|[^'\\])'")
IDENT_RE = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
SUFFIX_OK = {'', 'u', 'U', 'l', 'L', 'ul', 'uL', 'Ul', 'UL', 'lu', 'Lu', 'lU', 'LU',
             'll', 'LL', 'ull', 'uLL', 'Ull', 'ULL', 'llu', 'LLu', 'llU', 'LLU'}
KEYWORDS = {'if', 'while', 'for', 'switch', 'return', 'sizeof', 'case', 'do', 'else',
            '_Alignof', '_Generic', '_Static_assert', 'defined', '__typeof__', 'typeof',
            'goto', 'break', 'continue', 'default', '__attribute__', 'static_assert'}
TYPE_WORDS = {'const', 'static', 'struct', 'enum', 'union', 'unsigned', 'signed', 'volatile',
              'extern', 'typedef', 'int', 'char', 'long', 'short', 'void', 'double', 'float',
              'bool', '_Bool', 'inline', 'register', 'auto', '_Thread_local', '_Atomic'}
ASSIGN = {'=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>='}
# Directives whose text no operator touches.
PP_SKIP = {'include', 'pragma', 'error', 'warning', 'line', 'undef', 'ifdef', 'ifndef',
           'else', 'endif', '#', 'import'}


class Tok:
    __slots__ = ('kind', 'text', 'start', 'end')

    def __init__(self, kind, text, start, end):
        self.kind, self.text, self.start, self.end = kind, text, start, end


def lex(text):
    """Each line's tokens and its preprocessor directive (or None)."""
    lines = text.split('\n')
    out = []
    in_comment = False
    cont = None  # the directive a backslash continues onto the next line
    for line in lines:
        toks = []
        i, n = 0, len(line)
        while i < n:
            if in_comment:
                j = line.find('*/', i)
                if j < 0:
                    break
                in_comment = False
                i = j + 2
                continue
            c = line[i]
            if c in ' \t\r\f\v':
                i += 1
            elif line.startswith('/*', i):
                in_comment = True
                i += 2
            elif line.startswith('//', i):
                break
            elif c == '"':
                j = i + 1
                while j < n and line[j] != '"':
                    j += 2 if line[j] == '\\' else 1
                j = min(j + 1, n)
                toks.append(Tok('str', line[i:j], i, j))
                i = j
            elif c == "'":
                m = CHAR_RE.match(line, i)
                j = m.end() if m else i + 1
                toks.append(Tok('chr' if m else 'op', line[i:j], i, j))
                i = j
            elif c.isdigit() or (c == '.' and i + 1 < n and line[i + 1].isdigit()):
                j = i + 1
                hexa = line.startswith(('0x', '0X'), i)
                while j < n and (line[j].isalnum() or line[j] in '_.' or
                                 (not hexa and line[j] in '+-' and line[j - 1] in 'eE')):
                    j += 1
                toks.append(Tok('num', line[i:j], i, j))
                i = j
            elif c.isalpha() or c == '_':
                m = IDENT_RE.match(line, i)
                toks.append(Tok('id', m.group(), i, m.end()))
                i = m.end()
            else:
                for p in PUNCT:
                    if line.startswith(p, i):
                        break
                else:
                    p = c
                toks.append(Tok('op', p, i, i + len(p)))
                i += len(p)
        directive = cont
        if directive is None and toks and toks[0].text == '#':
            directive = toks[1].text if len(toks) > 1 and toks[1].kind == 'id' else '#'
        cont = directive if directive and line.rstrip().endswith('\\') else None
        out.append((toks, directive))
    return lines, out


def int_value(text):
    """(value, rewrite) for a C integer literal, else None; rewrite(v) spells v alike."""
    m = INT_RE.match(text)
    if not m:
        return None
    if m.group(1):
        digits, suffix = m.group(2), m.group(3)
        if suffix not in SUFFIX_OK:
            return None
        upper = any(ch in 'ABCDEF' for ch in digits) or not any(ch in 'abcdef' for ch in digits)
        fmt = '%0*X' if upper else '%0*x'
        return int(digits, 16), lambda v: m.group(1) + fmt % (len(digits), v) + suffix
    digits, suffix = m.group(4), m.group(5)
    if suffix not in SUFFIX_OK:
        return None
    if len(digits) > 1 and digits[0] == '0':
        return int(digits, 8), lambda v: '0%o' % v + suffix
    return int(digits), lambda v: '%d' % v + suffix


def operand(t):
    return t.kind in ('id', 'num', 'str', 'chr') and t.text not in KEYWORDS or t.text in (')', ']')


class Mutant:
    __slots__ = ('path', 'line', 'k', 'op', 'old', 'new', 'check', 'index', 'conditional')

    def __init__(self, path, line, op, old, new, check=None):
        self.path, self.line, self.op, self.old, self.new, self.check = path, line, op, old, new, check
        self.k = 0
        self.index = 0
        self.conditional = False  # inside #if: maybe not in the build compared

    @property
    def ident(self):
        return '%s:%d:%d' % (self.path, self.line, self.k)

    def key(self):
        return (self.path, self.op, self.old.strip(), self.new.strip())

    def where(self):
        return '%s:%d: %s: `%s` -> `%s`' % (self.path, self.line, self.op,
                                            self.old.strip(), self.new.strip())


def line_mutants(line, toks, directive, prev_last, c_code):
    """(op, new line, check line or None) for every mutant of one line."""
    if directive in PP_SKIP:
        return []
    first = 0
    if directive == 'define' and toks and toks[0].text == '#':
        first = 3
        if len(toks) > 3 and toks[3].text == '(' and toks[3].start == toks[2].end:
            while first < len(toks) and toks[first].text != ')':
                first += 1
            first += 1
    elif directive:
        first = 2 if toks and toks[0].text == '#' else 0
    out = []

    def put(op, a, b, text, check=None):
        out.append((op, line[:a] + text + line[b:], check))

    n = len(toks)
    sizes = array_sizes(toks)
    for k in range(first, n):
        t = toks[k]
        prev = toks[k - 1] if k > first else None
        nxt = toks[k + 1] if k + 1 < n else None
        if t.kind == 'op' and t.text in ('<', '<=', '>', '>=', '==', '!='):
            flip = {'<': '<=', '<=': '<', '>': '>=', '>=': '>', '==': '!=', '!=': '=='}[t.text]
            put('rel', t.start, t.end, flip)
        elif t.kind == 'op' and t.text in ('&&', '||'):
            put('logic', t.start, t.end, '||' if t.text == '&&' else '&&')
            lo, hi = operand_span(toks, first, k, t.text)
            if lo < k:
                put('cond', toks[lo].start, toks[k + 1].start if k + 1 < n else t.end, '')
            if hi > k:
                put('cond', toks[k - 1].end if k > first else t.start, toks[hi].end, '')
        elif t.kind == 'num':
            iv = int_value(t.text)
            if iv is None:
                continue
            value, spell = iv
            if (value == 1 and prev is not None and prev.text in ('+', '-') and k - 1 > first
                    and operand(toks[k - 2]) and (nxt is None or nxt.text not in HIGHER)):
                if prev.text == '+' or k not in sizes:
                    put('plus1', toks[k - 2].end, t.end, '')
                if prev.text == '-' or k not in sizes:
                    put('plus1', t.start, t.end, spell(2))
                continue
            if k not in sizes:
                put('const', t.start, t.end, spell(value + 1))
            if value > 0:
                put('const', t.start, t.end, spell(value - 1))
        elif t.kind == 'op' and t.text in ('<<', '>>') and prev is not None and operand(prev):
            end = primary_end(toks, k + 1)
            if end is not None and toks[k + 1].kind != 'num':
                a, b = toks[k + 1].start, toks[end].end
                for sign in ('+', '-'):
                    put('shift', a, b, '(%s %s 1)' % (line[a:b], sign))
        elif t.text == '(' and c_code and prev is not None and (
                prev.kind == 'id' and prev.text not in KEYWORDS and prev.text not in TYPE_WORDS
                and not declares(toks, k - 1, first) or prev.text in (')', ']')):
            args = call_args(toks, k)
            for x, y in zip(args, args[1:]):
                ta, tb = line[toks[x[0]].start:toks[x[1]].end], line[toks[y[0]].start:toks[y[1]].end]
                if ta == tb or not plain_arg(toks, x) or not plain_arg(toks, y):
                    continue
                a, m, b = toks[x[0]].start, line[toks[x[1]].end:toks[y[0]].start], toks[y[1]].end
                chk = ('__builtin_choose_expr(__builtin_types_compatible_p(__typeof__(%s), '
                       '__typeof__(%s)), (%s), (void)0)' % (tb, ta, tb))
                out.append(('swap', line[:a] + tb + m + ta + line[b:],
                            line[:a] + chk + m + ta + line[b:]))
    if not directive and is_statement(toks, prev_last):
        indent = line[:len(line) - len(line.lstrip())]
        body = prev_last is not None and (prev_last.text == ')' or prev_last.text == 'else')
        out.append(('stmt', indent + ('{ }' if body else ';'), None))
    seen = set()
    uniq = []
    for m in out:
        if m[1] != line and m[1] not in seen:
            seen.add(m[1])
            uniq.append(m)
    return uniq


HIGHER = {'*', '/', '%', '(', '[', '.', '->', '++', '--'}
STOP = {'&&': {'&&', '||', '?', ':', ',', ';', '{', '}'} | ASSIGN,
        '||': {'||', '?', ':', ',', ';', '{', '}'} | ASSIGN}


def array_sizes(toks):
    """Indices of the tokens in the size of an array a declaration declares.
    Only smaller is a mutant there: an array larger than it needs to be
    behaves the same."""
    if not toks or not (toks[0].text in TYPE_WORDS or (
            toks[0].kind == 'id' and len(toks) > 1 and (toks[1].kind == 'id' or toks[1].text == '*'))):
        return set()
    out, depth = set(), 0
    for j, t in enumerate(toks):
        if t.text == '[' and (depth or j and toks[j - 1].kind == 'id'):
            depth += 1
        elif t.text == ']' and depth:
            depth -= 1
        elif depth:
            out.add(j)
    return out


def operand_span(toks, first, k, op):
    """The first and last token of the operands around toks[k] (an && or ||)."""
    depth, j = 0, k - 1
    while j >= first:
        t = toks[j].text
        if t in (')', ']'):
            depth += 1
        elif t in ('(', '['):
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (t in STOP[op] or t in ('return', 'case', 'if', 'while')):
            break
        j -= 1
    lo = j + 1
    depth, j = 0, k + 1
    while j < len(toks):
        t = toks[j].text
        if t in ('(', '['):
            depth += 1
        elif t in (')', ']'):
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and t in STOP[op]:
            break
        j += 1
    return lo, j - 1


def primary_end(toks, k):
    """The last token of the primary expression that starts at toks[k], or None."""
    if k >= len(toks):
        return None
    if toks[k].text == '(':
        depth = 0
        for j in range(k, len(toks)):
            depth += {'(': 1, ')': -1}.get(toks[j].text, 0)
            if depth == 0:
                return j
        return None
    if toks[k].kind not in ('id', 'num'):
        return None
    j = k
    while j + 2 < len(toks) and toks[j + 1].text in ('.', '->') and toks[j + 2].kind == 'id':
        j += 2
    if j + 1 < len(toks) and toks[j + 1].text in ('(', '['):
        return None
    return j


def declares(toks, k, first):
    """toks[k] is the name in a declaration or definition: a type before it."""
    j = k - 1
    while j >= first and toks[j].text == '*':
        j -= 1
    return j >= first and toks[j].kind == 'id' and toks[j].text not in KEYWORDS


def call_args(toks, p):
    """Token ranges (first, last) of the arguments of the call whose '(' is toks[p],
    as far as they end on this line."""
    args = []
    depth, start = 0, p + 1
    for j in range(p + 1, len(toks)):
        t = toks[j].text
        if t in ('(', '[', '{'):
            depth += 1
        elif t in (')', ']', '}'):
            if depth == 0:
                if j > start:
                    args.append((start, j - 1))
                return args
            depth -= 1
        elif t == ',' and depth == 0:
            if j > start:
                args.append((start, j - 1))
            start = j + 1
        elif t == ';':
            return args
    return args


def plain_arg(toks, span):
    """An argument that can be an expression (no declaration, no type words)."""
    a, b = span
    for j in range(a, b + 1):
        t = toks[j]
        if t.text in TYPE_WORDS or t.text in ('{', '}', ';'):
            return False
        if j > a and t.kind == 'id' and toks[j - 1].kind == 'id':
            return False
    return True


def is_statement(toks, prev_last):
    """A whole statement on this line, the line before it ending one or opening a body."""
    if len(toks) < 2 or toks[-1].text != ';':
        return False
    if prev_last is not None and prev_last.text not in (';', '{', '}', ':', ')', 'else'):
        return False
    t0 = toks[0].text
    if t0 in ('assert', '_Static_assert', 'static_assert') or 'STATIC_ASSERT' in t0:
        return False  # an assertion that holds: deleting it changes nothing to see
    if t0 in TYPE_WORDS or t0 in ('else', 'case', 'default', 'for', 'if', 'while', 'do',
                                  'switch', '#', '}', '{', '@'):
        return False
    depth = 0
    for t in toks:
        if t.text in ('{', '}'):
            return False
        depth += {'(': 1, '[': 1, ')': -1, ']': -1}.get(t.text, 0)
        if depth < 0:
            return False
    if depth:
        return False
    # A declaration: TYPE name, TYPE *name, TYPE **name.
    j = 1
    while j < len(toks) and toks[j].text == '*':
        j += 1
    if toks[0].kind == 'id' and j < len(toks) and toks[j].kind == 'id':
        return False
    return True


def conditional_lines(lexed):
    """For each line, whether it is inside an #if group (an include guard aside)."""
    out, depth, guard = [], 0, None
    directives = [(i, t) for i, (t, d) in enumerate(lexed) if d and t and t[0].text == '#' and len(t) > 1]
    if (len(directives) > 1 and directives[0][1][1].text == 'ifndef' and directives[1][1][1].text == 'define'
            and len(directives[0][1]) > 2 and len(directives[1][1]) > 2
            and directives[0][1][2].text == directives[1][1][2].text):
        guard = directives[0][0]
    for i, (toks, d) in enumerate(lexed):
        word = toks[1].text if d and toks and toks[0].text == '#' and len(toks) > 1 else None
        if word in ('if', 'ifdef', 'ifndef') and i != guard:
            depth += 1
        elif word == 'endif' and depth:
            depth -= 1
        out.append(depth > 0 or word in ('else', 'elif', 'endif'))
    return out


def file_mutants(path, text, c_code):
    lines, lexed = lex(text)
    cond = conditional_lines(lexed)
    out = []
    prev_last = None
    for no, (line, (toks, directive)) in enumerate(zip(lines, lexed), 1):
        found = line_mutants(line, toks, directive, prev_last, c_code) if toks else []
        for k, (op, new, check) in enumerate(found):
            m = Mutant(path, no, op, line, new, check)
            m.k = k
            m.conditional = cond[no - 1]
            out.append(m)
        if toks:
            prev_last = toks[-1] if not directive else Tok('op', ';', 0, 0)
    return out


C_SUFFIXES = ('.c', '.h', '.y', '.re', '.def')


def enumerate_mutants(root, patterns):
    files = set()
    for pat in patterns:
        for f in glob.glob(os.path.join(root, pat)):
            if os.path.isfile(f):
                files.add(os.path.relpath(f, root))
    mutants = []
    for path in sorted(files):
        with open(os.path.join(root, path), encoding='utf-8', errors='surrogateescape') as fh:
            text = fh.read()
        c_code = path.startswith('compiler/') and path.endswith(C_SUFFIXES)
        mutants.extend(file_mutants(path, text, c_code))
    for i, m in enumerate(mutants):
        m.index = i
    return sorted(files), mutants


# ---- the reviewed list of equivalent mutants ------------------------------

def read_equivalent(path):
    """Entries of the list: dicts with path, op, old, new, why, line (of the list)."""
    entries = []
    if not os.path.exists(path):
        return entries, ['%s: no such file' % path]
    cur = None
    errors = []
    with open(path, encoding='utf-8') as fh:
        for no, raw in enumerate(fh, 1):
            line = raw.rstrip('\n')
            if line.startswith('#'):
                continue
            if not line.strip():
                cur = None
                continue
            if cur is None:
                m = re.match(r'(\S+): (\w+)$', line)
                if not m or m.group(2) not in OPS:
                    errors.append('%s:%d: expected "FILE: OPERATOR"' % (path, no))
                    continue
                cur = {'path': m.group(1), 'op': m.group(2), 'old': None, 'new': None,
                       'why': '', 'line': no}
                entries.append(cur)
            elif line.startswith('- ') and cur['old'] is None:
                cur['old'] = line[2:].strip()
            elif line.startswith('+ ') and cur['new'] is None:
                cur['new'] = line[2:].strip()
            elif line.startswith('why: '):
                cur['why'] = line[5:].strip()
            elif line.startswith('  ') and cur['why']:
                cur['why'] += ' ' + line.strip()
            else:
                errors.append('%s:%d: expected "- OLD", "+ NEW" or "why: REASON"' % (path, no))
    for e in entries:
        if e['old'] is None or e['new'] is None or not e['why']:
            errors.append('%s:%d: an entry needs "- OLD", "+ NEW" and "why: REASON"' % (path, e['line']))
    return entries, errors


# ---- scratch copies ------------------------------------------------------

CLEAN_ENV = ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEOVERRIDES', 'B', 'SAN', 'CFLAGS', 'LDFLAGS')


def child_env(scratch, mutant):
    env = {k: v for k, v in os.environ.items()
           if k not in CLEAN_ENV and not k.startswith('SEGC_')}
    env['SEGC_MUTANT'] = mutant
    env['TMPDIR'] = os.path.join(scratch, '.tmp')
    return env


# The process groups of the commands running now, ended if the campaign is.
ACTIVE = set()
ACTIVE_LOCK = threading.Lock()


STOPPING = []


def end_all():
    with ACTIVE_LOCK:
        STOPPING.append(True)
        for pid in ACTIVE:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def kill_strays(tree):
    """Kills what a command left running from `tree` (its executable or
    working directory there) outside the process group run() ends: a
    Check test forks into a group of its own, and a mutant that made it
    spin would outlive its runner."""
    tree = os.path.realpath(tree) + os.sep
    for d in os.listdir('/proc'):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        for link in ('exe', 'cwd'):
            try:
                if (os.readlink('/proc/%s/%s' % (d, link)) + os.sep).startswith(tree):
                    os.kill(int(d), signal.SIGKILL)
                    break
            except OSError:
                pass


def run(cmd, cwd, env, timeout, log, stop_on=None):
    """Exit status of cmd (TIMEOUT when it ran out of time); its output
    appended to log.  With stop_on (a compiled regex), the first line of
    output it matches ends the command: a failure, without waiting for the
    rest of it."""
    os.makedirs(env['TMPDIR'], exist_ok=True)
    with open(log, 'ab') as out:
        out.write(('$ %s\n' % ' '.join(cmd)).encode())
        out.flush()
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE if stop_on else out,
                             stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        with ACTIVE_LOCK:
            ACTIVE.add(p.pid)
            if STOPPING:
                os.killpg(p.pid, signal.SIGKILL)
        t0 = time.time()
        seen = []

        def watch():
            for line in p.stdout:
                out.write(line)
                if not seen and stop_on.search(line.decode('utf-8', 'replace')):
                    seen.append(line)
                    out.flush()
                    try:
                        os.killpg(p.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
        reader = None
        if stop_on:
            reader = threading.Thread(target=watch, daemon=True)
            reader.start()
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            rc = TIMEOUT
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()
        kill_strays(cwd)
        if reader:
            reader.join(10)
        if seen:
            rc = 1
        with ACTIVE_LOCK:
            ACTIVE.discard(p.pid)
            if STOPPING:
                rc = INTERRUPTED
        out.write(('-> exit %d after %.1f s%s\n' % (rc, time.time() - t0,
                                                  ' (timeout)' if rc == TIMEOUT else
                                                  ' (stopped at its first failure)' if seen else '')).encode())
    return rc


def copy_tree(src, dst):
    if os.path.exists(dst):
        remove_tree(dst)
    subprocess.run(['cp', '-a', '--reflink=auto', src, dst], check=True)


def remove_tree(path):
    if os.path.exists(path):
        subprocess.run(['chmod', '-R', 'u+rwx', path], stderr=subprocess.DEVNULL)
        shutil.rmtree(path, ignore_errors=True)


def make_base(src, base, build_dir, reuse, log):
    """A pristine copy of src: a shared git clone with the working files laid
    over it when src is a git work tree, else a copy without the build dir."""
    remove_tree(base)
    git = subprocess.run(['git', '-C', src, 'rev-parse', '--is-inside-work-tree'],
                         capture_output=True, text=True)
    if git.returncode == 0 and git.stdout.strip() == 'true':
        subprocess.run(['git', 'clone', '-q', '--shared', '--no-checkout', src, base],
                       check=True, stdout=subprocess.DEVNULL)
        head = subprocess.run(['git', '-C', src, 'rev-parse', 'HEAD'], check=True,
                              capture_output=True, text=True).stdout.strip()
        subprocess.run(['git', '-C', base, 'checkout', '-q', '--detach', head], check=True)
        files = subprocess.run(['git', '-C', src, 'ls-files', '-z', '-co', '--exclude-standard'],
                               check=True, capture_output=True).stdout.split(b'\0')
        for f in files:
            f = f.decode('utf-8', 'surrogateescape')
            if not f:
                continue
            s, d = os.path.join(src, f), os.path.join(base, f)
            if os.path.lexists(s):
                os.makedirs(os.path.dirname(d), exist_ok=True)
                if os.path.lexists(d):
                    os.unlink(d)
                shutil.copy2(s, d, follow_symlinks=False)
            elif os.path.lexists(d):
                os.unlink(d)
    else:
        top = build_dir.split('/')[0]
        shutil.copytree(src, base, symlinks=True,
                        ignore=lambda d, names: [top] if os.path.samefile(d, src) else [])
    for r in reuse:
        s = os.path.join(src, r)
        if os.path.isdir(s):
            d = os.path.join(base, r)
            os.makedirs(os.path.dirname(d), exist_ok=True)
            subprocess.run(['cp', '-a', s, d], check=True)
            with open(log, 'a') as fh:
                fh.write('reused %s\n' % r)


# ---- comparing builds ----------------------------------------------------

def is_elf(path):
    try:
        with open(path, 'rb') as fh:
            head = fh.read(8)
    except OSError:
        return False
    return head.startswith(b'\x7fELF') or head.startswith(b'!<arch>\n')


def stripped_digest(path, tmpdir):
    out = os.path.join(tmpdir, 'strip.%d.%d' % (os.getpid(), threading.get_ident()))
    r = subprocess.run(['objcopy', '--strip-debug', '-R', '.note.gnu.build-id', path, out],
                       capture_output=True)
    if r.returncode != 0:
        with open(path, 'rb') as fh:
            data = fh.read()
    else:
        with open(out, 'rb') as fh:
            data = fh.read()
        os.unlink(out)
    return hashlib.sha256(data).hexdigest()


class Digests:
    def __init__(self):
        self.lock = threading.Lock()
        self.cache = {}

    def get(self, path, tmpdir):
        with self.lock:
            if path in self.cache:
                return self.cache[path]
        d = stripped_digest(path, tmpdir)
        with self.lock:
            self.cache[path] = d
        return d


def same_code(base, work, build_dir, digests):
    """True when every ELF file the mutant's build remade is the base's, debug info aside."""
    root = os.path.join(work, build_dir)
    for d, _, names in os.walk(root):
        for name in names:
            p = os.path.join(d, name)
            rel = os.path.relpath(p, work)
            q = os.path.join(base, rel)
            try:
                st = os.stat(p)
            except OSError:
                continue
            try:
                if os.stat(q).st_mtime_ns == st.st_mtime_ns:
                    continue
            except OSError:
                if is_elf(p):
                    return False
                continue
            if not is_elf(p):
                continue
            if stripped_digest(p, os.path.join(work, '.tmp')) != digests.get(q, os.path.join(work, '.tmp')):
                return False
    return True


# ---- the campaign ---------------------------------------------------------

def write_line(root, m, text, was):
    path = os.path.join(root, m.path)
    with open(path, encoding='utf-8', errors='surrogateescape') as fh:
        lines = fh.read().split('\n')
    if lines[m.line - 1] != was:
        raise RuntimeError('%s:%d in the scratch copy is not what was read' % (m.path, m.line))
    lines[m.line - 1] = text
    st = os.stat(path)
    with open(path + '.mutant', 'w', encoding='utf-8', errors='surrogateescape') as fh:
        fh.write('\n'.join(lines))
    os.chmod(path + '.mutant', st.st_mode)
    os.replace(path + '.mutant', path)
    # Newer than anything built from it, whatever the clock's resolution.
    t = max(time.time(), st.st_mtime + 1)
    os.utime(path, (t, t))


class Campaign:
    def __init__(self, a):
        self.a = a
        self.lock = threading.Lock()
        self.results = {}        # mutant index -> result dict
        self.validated = {}      # target -> (ok, seconds) on the pristine base
        self.validate_locks = {}
        self.digests = Digests()
        self.abort = None
        self.stopped = False
        self.stop_on = re.compile(a.stop_on) if a.stop_on else None
        self.unlike = 0          # swaps whose arguments differ in type
        self.done = 0
        self.started = time.time()

    def make(self, *targets):
        return ['make', '-s', 'B=' + self.a.build_dir] + list(targets)

    def say(self, text):
        with self.lock:
            print(text, flush=True)

    def log(self, name):
        return os.path.join(self.a.scratch, 'logs', name)

    # A target that kills a mutant must pass on the pristine tree.
    def validate(self, base, target, stage):
        with self.lock:
            lk = self.validate_locks.setdefault((stage, target), threading.Lock())
        with lk:
            if (stage, target) in self.validated:
                return self.validated[(stage, target)][0]
            work = os.path.join(self.a.scratch, 'pristine-%s-%s' % (stage, re.sub(r'\W', '_', target)))
            copy_tree(base, work)
            t0 = time.time()
            rc = run(self.make(target), work, child_env(work, 'none'), self.a.timeout,
                     self.log('pristine-%s.log' % re.sub(r'\W', '_', target)))
            ok = rc == 0
            self.validated[(stage, target)] = (ok, time.time() - t0)
            remove_tree(work)
            if not ok:
                self.abort = ('`make %s` fails on the unmutated tree (log: %s)'
                              % (target, self.log('pristine-%s.log' % re.sub(r'\W', '_', target))))
            return ok

    def timeout_for(self, stage, target):
        v = self.validated.get((stage, target))
        if v and v[0]:
            return max(self.a.timeout_min, 10 * v[1])
        return self.a.timeout

    def run_targets(self, m, base, work, stage, targets, log):
        """(killer, seconds per target, targets that failed): killer is the
        first target that failed, None when every one passed."""
        times = {}
        failed = []
        env = child_env(work, m.ident)
        for target in targets:
            t0 = time.time()
            rc = run(self.make(target), work, env, self.timeout_for(stage, target), log,
                     None if self.a.matrix else self.stop_on)
            times[target] = time.time() - t0
            if rc == INTERRUPTED:
                return 'interrupted', times, failed
            if rc != 0:
                if not self.validate(base, target, stage):
                    return 'invalid-target', times, failed
                failed.append(target + (' (timeout)' if rc == TIMEOUT else ''))
                if not self.a.matrix:
                    break
        return (failed[0] if failed else None), times, failed

    def quick_stage(self, m, wid):
        a = self.a
        base = os.path.join(a.scratch, 'base')
        work = os.path.join(a.scratch, 'w%d' % wid)
        log = self.log('%05d.log' % m.index)
        copy_tree(base, work)
        env = child_env(work, m.ident)
        res = {'status': None}
        t0 = time.time()
        if m.check is not None:
            write_line(work, m, m.check, m.old)
            rc = run(self.make(*a.build), work, env, a.timeout, log)
            if rc != 0:
                remove_tree(work)
                return {'status': 'aborted' if rc == INTERRUPTED else 'types', 'seconds': time.time() - t0}
        write_line(work, m, m.new, m.old if m.check is None else m.check)
        rc = run(self.make(*a.build), work, env, a.timeout, log)
        if rc == INTERRUPTED:
            res['status'] = 'aborted'
        elif rc != 0:
            res['status'] = 'nocompile'
        elif not m.conditional and same_code(base, work, a.build_dir, self.digests):
            res['status'] = 'identical'
        else:
            killer, times, failed = self.run_targets(m, base, work, 'quick', a.quick, log)
            res['times'] = times
            res['failed'] = [f.split()[0] for f in failed]
            res['killer'] = killer
            res['status'] = ('aborted' if killer in ('invalid-target', 'interrupted') else
                             'killed-quick' if killer else 'survived-quick')
        res['seconds'] = time.time() - t0
        remove_tree(work)
        return res

    def test_stage(self, m, wid):
        a = self.a
        base = os.path.join(a.scratch, 'base-test')
        work = os.path.join(a.scratch, 't%d' % wid)
        log = self.log('%05d.log' % m.index)
        copy_tree(base, work)
        write_line(work, m, m.new, m.old)
        t0 = time.time()
        killer, _, _ = self.run_targets(m, base, work, 'test', a.test, log)
        remove_tree(work)
        return killer, time.time() - t0

    def pool(self, n, take, fn):
        """fn(item, worker id) on n threads for each item take() gives (until None)."""
        def worker(wid):
            while self.abort is None:
                item = take()
                if item is None:
                    return
                try:
                    fn(item, wid)
                except Exception as e:  # one broken mutant must not hang the others
                    self.abort = '%s: %s: %s' % (item.ident, type(e).__name__, e)
        threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(n)]
        for t in threads:
            t.start()
        try:
            for t in threads:
                while t.is_alive():
                    t.join(0.5)
        except KeyboardInterrupt:
            # Ctrl-C or SIGTERM: what has ended is reported, the rest is not.
            self.stopped = True
            end_all()
            for t in threads:
                t.join()


def changed_lines(root, rev, files):
    """{file: set of line numbers} that differ from git revision rev."""
    inside = subprocess.run(['git', '-C', root, 'rev-parse', '--verify', '-q', rev + '^{commit}'],
                            capture_output=True)
    if inside.returncode != 0:
        print('mutate: no git revision %s here: no lines count as changed' % rev)
        return {}
    r = subprocess.run(['git', '-C', root, 'diff', '-U0', '--no-color', '--no-ext-diff', rev, '--'] + files,
                       capture_output=True, text=True, errors='surrogateescape')
    if r.returncode != 0:
        sys.exit('mutate: git diff %s: %s' % (rev, r.stderr.strip()))
    out, path = {}, None
    for line in r.stdout.split('\n'):
        if line.startswith('+++ '):
            path = line[6:] if line.startswith('+++ b/') else None
        elif line.startswith('@@ ') and path:
            m = re.match(r'@@ -\S+ \+(\d+)(?:,(\d+))? @@', line)
            first, n = int(m.group(1)), int(m.group(2) or 1)
            out.setdefault(path, set()).update(range(first, first + n))
    return out


def fmt_rate(k, n):
    return '%d/%d = %.1f%%' % (k, n, 100.0 * k / n) if n else '%d/0' % k


def main():
    ap = argparse.ArgumentParser(description='mutation testing for segc')
    ap.add_argument('--src', required=True, help='globs of the files to mutate (one string)')
    ap.add_argument('--build', default='all', help='make targets that build what the tests run')
    ap.add_argument('--build-dir', default='build', help="make's output directory (B)")
    ap.add_argument('--quick', default='', help='make targets run in turn on each mutant')
    ap.add_argument('--test', default='', help="make targets run on quick's survivors")
    ap.add_argument('--stop-on', default='',
                    help='a regex: the first line of output it matches ends the run as a kill (not with --matrix)')
    ap.add_argument('--equivalent', default='', help='the reviewed list of equivalent mutants')
    ap.add_argument('--count', type=int, default=200)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--time', type=float, default=0, help='start no mutant after this many seconds (0: no bound)')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--timeout', type=float, default=900, help='seconds for a make run whose pristine time is unknown')
    ap.add_argument('--timeout-min', type=float, default=120)
    ap.add_argument('--scratch', default='', help='scratch directory (default: a new one in TMPDIR)')
    ap.add_argument('--keep', action='store_true', help='keep the scratch directory')
    ap.add_argument('--reuse', default='', help='build paths copied from the tree into the base (third-party builds)')
    ap.add_argument('--ids', default='', help='run these mutants (FILE:LINE:K, comma-separated) instead of a sample')
    ap.add_argument('--since', default='', help='only the lines changed since this git revision')
    ap.add_argument('--since-count', type=int, default=-1,
                    help='with --since: this many of the changed lines first, then --count of all')
    ap.add_argument('--matrix', action='store_true', help='run every quick target on every mutant and tabulate')
    ap.add_argument('--list', action='store_true', help='list the mutants (and the sample) and stop')
    ap.add_argument('--show', default='', help='print one mutant (FILE:LINE:K) as a diff and stop')
    ap.add_argument('--goal-quick', type=float, default=0)
    ap.add_argument('--goal-test', type=float, default=0)
    ap.add_argument('--fail-on-survivor', action='store_true',
                    help='exit 1 if a mutant not listed as equivalent survives everything run')
    a = ap.parse_args()
    a.build = a.build.split()
    a.quick = a.quick.split()
    a.test = a.test.split()
    root = os.getcwd()

    if os.environ.get('SEGC_MUTANT'):
        # Run by a mutant's own test run: nothing to measure here.
        print('mutate: not run inside a mutant (SEGC_MUTANT=%s)' % os.environ['SEGC_MUTANT'])
        return 0

    # Started under nohup, SIGHUP is ignored, and an ignored signal stays
    # ignored in every child: the suites that send it would fail on the
    # pristine tree.  A handler of our own is reset in the children instead.
    if signal.getsignal(signal.SIGHUP) == signal.SIG_IGN:
        signal.signal(signal.SIGHUP, lambda *_: None)

    files, mutants = enumerate_mutants(root, a.src.split())
    entries, errors = read_equivalent(a.equivalent) if a.equivalent else ([], [])
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        return 2
    by_key = {}
    for m in mutants:
        by_key.setdefault(m.key(), []).append(m)
    stale = [e for e in entries if (e['path'], e['op'], e['old'], e['new']) not in by_key]
    listed = {}
    for e in entries:
        for m in by_key.get((e['path'], e['op'], e['old'], e['new']), []):
            listed[m.index] = e

    if a.show:
        ms = [m for m in mutants if m.ident == a.show]
        if not ms:
            print('no mutant %s' % a.show, file=sys.stderr)
            return 2
        m = ms[0]
        # A patch (`patch -p1` applies it), then the entry that would list it.
        print('--- a/%s\n+++ b/%s\n@@ -%d,1 +%d,1 @@\n-%s\n+%s'
              % (m.path, m.path, m.line, m.line, m.old, m.new))
        print('\n%s: %s\n- %s\n+ %s\nwhy: ...' % (m.path, m.op, m.old.strip(), m.new.strip()),
              file=sys.stderr)
        return 0

    # Each mutant's place in a sample comes from its own text and the seed
    # only, so an edit elsewhere leaves the sample as it was, and new code
    # joins it as often as old code.
    def rank(m):
        h = hashlib.sha256(('%d\0%s\0%s\0%s\0%s' % ((a.seed,) + m.key())).encode(
            'utf-8', 'surrogateescape')).digest()
        return (h, m.index)

    fresh = []
    if a.since:
        changed = changed_lines(root, a.since, files)
        fresh = sorted((m for m in mutants if m.line in changed.get(m.path, ())), key=rank)
        print('mutate: %d mutants on the lines changed since %s' % (len(fresh), a.since))
        if a.since_count < 0:
            mutants = fresh
            fresh = []

    if a.ids:
        want = a.ids.replace(',', ' ').split()
        ident = {m.ident: m for m in mutants}
        missing = [w for w in want if w not in ident]
        if missing:
            print('no such mutant: %s' % ' '.join(missing), file=sys.stderr)
            return 2
        order = [ident[w] for w in want]
        a.count = len(order)
    else:
        # --since-count N: N mutants of the changed lines first, then --count of all.
        fresh = fresh[:a.since_count] if fresh else []
        taken = set(m.index for m in fresh)
        order = fresh + sorted((m for m in mutants if m.index not in taken), key=rank)
        a.count += len(fresh)

    per_op = {}
    for m in mutants:
        per_op[m.op] = per_op.get(m.op, 0) + 1
    print('mutate: %d mutants in %d files (%s); seed %d, sample %d, %d jobs'
          % (len(mutants), len(files), ', '.join('%s %d' % (o, per_op.get(o, 0)) for o in OPS),
             a.seed, a.count, a.jobs), flush=True)

    if a.list:
        for m in order[:a.count]:
            print('%s %s' % (m.ident, m.where()))
        for e in stale:
            print('%s:%d: stale: matches no mutant: %s: %s -> %s'
                  % (a.equivalent, e['line'], e['path'], e['old'], e['new']))
        return 1 if stale else 0

    own = not a.scratch
    if own:
        a.scratch = tempfile.mkdtemp(prefix='segc-mutate.')
    a.scratch = os.path.abspath(a.scratch)
    os.makedirs(os.path.join(a.scratch, 'logs'), exist_ok=True)
    c = Campaign(a)
    status = 2

    def stop(signum, _frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    try:
        status = campaign(c, root, order, listed, stale, entries)
    except KeyboardInterrupt:
        end_all()
        print('mutate: interrupted', file=sys.stderr)
    finally:
        if own and not a.keep:
            remove_tree(a.scratch)
    return status


def campaign(c, root, order, listed, stale, entries):
    a = c.a
    t_start = time.time()
    base = os.path.join(a.scratch, 'base')
    blog = c.log('base.log')
    make_base(root, base, a.build_dir, a.reuse.split(), blog)
    if run(c.make(*a.build), base, child_env(base, 'none'), a.timeout, blog) != 0:
        print('mutate: the unmutated tree does not build (log: %s)' % blog)
        return 2
    for t in a.quick:  # (not --test: make -n runs a recipe that calls $(MAKE))
        if subprocess.run(c.make('-n', t), cwd=base, env=child_env(base, 'none'),
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
            print('mutate: make has no target %s' % t)
            return 2
    deadline = t_start + a.time if a.time > 0 else None

    # Stage one: build, compare, --quick.  Mutants are taken in the sample's
    # order; a swap whose arguments differ in type is replaced by the next.
    counted = []
    state = {'next': 0, 'valid': 0, 'inflight': 0, 'timed_out': False}
    slock = threading.Lock()

    def take():
        with slock:
            if c.abort or state['valid'] + state['inflight'] >= a.count or state['next'] >= len(order):
                return None
            if deadline and time.time() > deadline:
                state['timed_out'] = True
                return None
            m = order[state['next']]
            state['next'] += 1
            state['inflight'] += 1
            return m

    def one(m, wid):
        if m.index in listed:
            res = {'status': 'listed', 'seconds': 0.0}
        else:
            res = c.quick_stage(m, wid)
        with slock:
            state['inflight'] -= 1
            if res['status'] != 'types':
                state['valid'] += 1
                counted.append(m)
        c.results[m.index] = res
        if res['status'] == 'types':
            c.unlike += 1
        if res['status'] not in ('types', 'aborted'):
            what = res['status'] if res['status'] != 'killed-quick' else 'killed by ' + res['killer']
            c.say('[%3d/%d] %-26s %s' % (len(counted), a.count, what, m.where()))

    c.pool(a.jobs, take, one)
    if c.abort:
        print('mutate: stopped: %s' % c.abort)
        return 2

    survivors = [m for m in counted if c.results[m.index]['status'] == 'survived-quick']
    t_quick = time.time() - t_start
    # Stage two: --test on the survivors, in a copy of a base that passed it.
    if a.test and survivors and not c.stopped:
        # Interrupted here (while the base passes --test, say), what the
        # quick stage found is still reported: its survivors as not run
        # through the test stage.
        try:
            status = stage_two(c, a, base, survivors, slock)
        except KeyboardInterrupt:
            c.stopped = True
            end_all()
            status = None
        if status is not None:
            return status
    elif survivors and not c.stopped:
        for m in survivors:
            c.results[m.index]['status'] = 'survived'
    counted = [m for m in counted if c.results[m.index]['status'] != 'aborted']
    return report(c, counted, listed, stale, entries, time.time() - t_start, t_quick,
                  'the time bound stopped the sample' if state['timed_out'] else
                  'interrupted: only what had ended' if c.stopped else '')


def stage_two(c, a, base, survivors, slock):
    """--test on the survivors, in a copy of a base that passed it: None,
    or the exit status when the campaign cannot go on."""
    tbase = os.path.join(a.scratch, 'base-test')
    copy_tree(base, tbase)
    tlog = c.log('base-test.log')
    t0 = time.time()
    ok = all(run(c.make(t), tbase, child_env(tbase, 'none'), a.timeout, tlog) == 0
             for t in a.test)
    if not ok:
        print('mutate: `make %s` fails on the unmutated tree (log: %s)' % (' '.join(a.test), tlog))
        return 2
    for t in a.test:
        c.validated[('test', t)] = (True, (time.time() - t0) / len(a.test))
    c.say('mutate: %d survivors of %s: running %s' % (len(survivors), ' '.join(a.quick), ' '.join(a.test)))
    tjobs = max(1, (a.jobs + 1) // 2)

    def two(m, wid):
        killer, secs = c.test_stage(m, wid)
        r = c.results[m.index]
        r['seconds'] += secs
        if killer in ('invalid-target', 'interrupted'):
            return
        r['status'] = 'killed-test' if killer else 'survived'
        r['killer'] = killer
        c.say('[test] %-26s %s' % ('killed by ' + killer if killer else 'SURVIVED', m.where()))
    queue = list(survivors)

    def take2():
        with slock:
            return queue.pop(0) if queue else None
    c.pool(tjobs, take2, two)
    if c.abort:
        print('mutate: stopped: %s' % c.abort)
        return 2
    return None


def report(c, counted, listed, stale, entries, seconds, t_quick, cut):
    a = c.a
    groups = {}
    for m in counted:
        groups.setdefault(c.results[m.index]['status'], []).append(m)
    n = {k: len(v) for k, v in groups.items()}
    n_id, n_ls = n.get('identical', 0), n.get('listed', 0)
    kq, kt, sq = n.get('killed-quick', 0), n.get('killed-test', 0), n.get('survived-quick', 0)
    surv = groups.get('survived', [])
    print()
    if groups.get('identical'):
        print('equivalent by construction (the build remade the same code):')
        for m in groups['identical']:
            print('  %s' % m.where())
    if groups.get('listed'):
        print('equivalent (listed in %s):' % a.equivalent)
        for m in groups['listed']:
            print('  %s' % m.where())
    if a.matrix:
        matrix(c, counted)
    if sq:
        print('survivors of the quick stage not run through the test stage:')
        for m in groups['survived-quick']:
            print('  %s  [%s]' % (m.where(), m.ident))
    print('survivors:' if surv else 'survivors: none')
    for m in surv:
        print('  %s  [%s]' % (m.where(), m.ident))
    for e in stale:
        print('%s:%d: stale entry: no mutant of the tree is `%s` -> `%s` in %s (%s)'
              % (a.equivalent, e['line'], e['old'], e['new'], e['path'], e['op']))
    print('mutate: seed %d, %d mutants in %.0f s (quick stage %.0f s) on %d jobs%s'
          % (a.seed, len(counted), seconds, t_quick, a.jobs, '; ' + cut if cut else ''))
    print('  not compiling %d, equivalent %d (same code %d, listed %d): not counted;'
          ' %d swaps of unlike types not run'
          % (n.get('nocompile', 0), n_id + n_ls, n_id, n_ls, c.unlike))
    live = kq + kt + sq + len(surv)
    print('  killed by the quick stage (%s): %s' % (' '.join(a.quick), fmt_rate(kq, live)))
    status = 1 if stale else 0
    if a.goal_quick and live and 100.0 * kq / live < a.goal_quick:
        print('  GOAL MISSED: the quick stage kills under %g%%' % a.goal_quick)
        status = 1
    if a.test and not sq:
        print('  killed by the quick stage, then the test stage (%s): %s'
              % (' '.join(a.test), fmt_rate(kq + kt, live)))
        if a.goal_test and live and 100.0 * (kq + kt) / live < a.goal_test:
            print('  GOAL MISSED: the test stage kills under %g%%' % a.goal_test)
            status = 1
    if a.fail_on_survivor and (surv or sq):
        status = 1
    return status


def matrix(c, counted):
    """Which quick target kills what, and at what cost: a guide to `make quick`."""
    a = c.a
    kills = {t: set() for t in a.quick}
    secs = {t: 0.0 for t in a.quick}
    runs = {t: 0 for t in a.quick}
    live = [m for m in counted if c.results[m.index]['status'] in ('killed-quick', 'survived-quick',
                                                                    'killed-test', 'survived')]
    for m in live:
        r = c.results[m.index]
        for t, s in r.get('times', {}).items():
            secs[t] += s
            runs[t] += 1
    for m in live:
        for t in c.results[m.index].get('failed', []):
            kills[t].add(m.index)
    print('matrix: %d mutants' % len(live))
    print('  %-18s %6s %8s %8s' % ('target', 'kills', 's/run', 'kills/s'))
    for t in a.quick:
        mean = secs[t] / runs[t] if runs[t] else 0
        print('  %-18s %6d %8.1f %8.2f' % (t, len(kills[t]), mean, len(kills[t]) / mean if mean else 0))
    # Greedy: the target that kills most of what is left per second, in turn.
    left = set().union(*kills.values()) if kills else set()
    chosen, total = [], 0.0
    while left:
        best = max(a.quick, key=lambda t: len(kills[t] & left) / (secs[t] / runs[t] if runs[t] else 1e9))
        gain = kills[best] & left
        if not gain:
            break
        total += secs[best] / runs[best] if runs[best] else 0
        chosen.append(best)
        left -= gain
        print('  greedy: + %-18s %4d more, %7.1f s per mutant so far' % (best, len(gain), total))


if __name__ == '__main__':
    sys.exit(main())
