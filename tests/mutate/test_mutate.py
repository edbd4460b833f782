#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test_mutate.py - the mutation driver's own tests: which mutants each
operator makes of a line, what it leaves alone, the list of equivalent
mutants and the sample.  Prints "ok   WHAT" or "FAIL WHAT: WHY" per check;
exits 1 if one failed."""

import importlib.util
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('mutate', os.path.join(HERE, 'mutate.py'))
mutate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mutate)

failed = 0


def check(what, got, want):
    global failed
    if got == want:
        print('ok   %s' % what)
    else:
        failed += 1
        print('FAIL %s: got %r, expected %r' % (what, got, want))


def mutants(text, c_code=True, line=None):
    """{(op, new line)} of one line of text (the last one unless line=N)."""
    ms = mutate.file_mutants('x.c', text, c_code)
    n = line or len(text.rstrip('\n').split('\n'))
    return {(m.op, m.new.strip()) for m in ms if m.line == n}


def ops(text, op, **kw):
    return sorted(new for o, new in mutants(text, **kw) if o == op)


# ---- each operator ----------------------------------------------------------

check('rel flips each relational operator',
      ops('if (a < b && c >= d && e == f) x;\n', 'rel'),
      sorted(['if (a <= b && c >= d && e == f) x;', 'if (a < b && c > d && e == f) x;',
              'if (a < b && c >= d && e != f) x;']))
check('rel leaves ->, << and <<= alone', ops('p->n = a << b; c <<= 1;\n', 'rel'), [])
check('const: n+1 and n-1, hex spelled alike, suffix kept',
      ops('x = 0x1F + 10u;\n', 'const'), sorted(['x = 0x20 + 10u;', 'x = 0x1E + 10u;',
                                                 'x = 0x1F + 11u;', 'x = 0x1F + 9u;']))
check('const: 0 only goes up', ops('x = 0;\n', 'const'), ['x = 1;'])
check('const leaves floats, identifiers and template conversions alone',
      ops('x = 1.5 + y2 + ${a:8x} + ${b:-24n};\n', 'const', c_code=False), [])
check('plus1: + 1 left out or made + 2, never also a const mutant of that 1',
      (ops('n = end + 1;\n', 'plus1'), ops('n = end + 1;\n', 'const')),
      (sorted(['n = end;', 'n = end + 2;']), []))
check('an array declared: only smaller',
      (ops('    char digits[17], out[2 + 16 + 1] = "0x";\n', 'const'),
       ops('    char out[N + 1];\n', 'plus1'), ops('    x = out[N + 1];\n', 'plus1')),
      (sorted(['char digits[16], out[2 + 16 + 1] = "0x";', 'char digits[17], out[1 + 16 + 1] = "0x";',
               'char digits[17], out[2 + 15 + 1] = "0x";']),
       ['char out[N];'], sorted(['x = out[N];', 'x = out[N + 2];'])))
check('plus1 leaves 1 * k alone', ops('n = a + 1 * k;\n', 'plus1'), [])
check('logic exchanges && and ||', ops('if (a && b || c) x;\n', 'logic'),
      sorted(['if (a || b || c) x;', 'if (a && b && c) x;']))
check('cond drops each operand of && and || (the preserve-combination mutant among them)',
      ops('    else if ((hb || ph) && !sb)\n', 'cond'),
      sorted(['else if ((hb) && !sb)', 'else if ((ph) && !sb)', 'else if (!sb)',
              'else if ((hb || ph))']))
check('cond stops at a lower operator: the operand of || is all of a && b',
      ops('x = a && b || c;\n', 'cond'),
      sorted(['x = b || c;', 'x = a || c;', 'x = c;', 'x = a && b;']))
swaps = [m for m in mutate.file_mutants('x.c', 'f(a, b->c, 2);\n', True) if m.op == 'swap']
check('swap exchanges neighbouring arguments', sorted(m.new for m in swaps),
      ['f(a, 2, b->c);', 'f(b->c, a, 2);'])
check('swap asks the compiler whether the types agree',
      swaps[0].check if swaps else None,
      'f(__builtin_choose_expr(__builtin_types_compatible_p(__typeof__(b->c), __typeof__(a)), '
      '(b->c), (void)0), a, 2);')
check('swap leaves declarations, definitions and sizeof alone',
      ops('static int f(int a, int b)\n', 'swap') + ops('n = sizeof(a, b);\n', 'swap'), [])
check('swap is for C only, not the emitted text', ops('f(a, b);\n', 'swap', c_code=False), [])
check('shift moves the amount by one', ops('x = 1u << k;\n', 'shift'),
      sorted(['x = 1u << (k + 1);', 'x = 1u << (k - 1);']))
check('stmt deletes a statement', ops('{\n    free(p);\n', 'stmt'), [';'])
check('stmt leaves an if body an empty block', ops('if (x)\n    n++;\n', 'stmt'), ['{ }'])
check('stmt leaves declarations, assertions and continued lines alone',
      ops('{\n    int n = f();\n', 'stmt') + ops('{\n    SEGC_STATIC_ASSERT(x, y);\n', 'stmt') +
      ops('{\n    assert(x);\n', 'stmt') + ops('f(a,\n  b);\n', 'stmt'), [])

# ---- what no operator touches -------------------------------------------------

check('comments, strings and character literals are not mutated',
      mutants('/* a < b */ s = "1 < 2"; // 3 > 4\n c = \'<\';\n', line=1)
      | mutants('x = "<"; /* a\n b < c */\n', line=2),
      {('stmt', ';')})
check('#include, #ifdef and #pragma lines are not mutated',
      mutants('#include <a.h>\n') | mutants('#ifdef A_1\n') | mutants('#pragma pack(1)\n'), set())
check('#define: the value, not the name or parameters',
      mutants('#define N2(a, b) ((a) < 4)\n'),
      {('rel', '#define N2(a, b) ((a) <= 4)'), ('const', '#define N2(a, b) ((a) < 5)'),
       ('const', '#define N2(a, b) ((a) < 3)')})

cm = {m.line: m.conditional for m in mutate.file_mutants(
    'x.h', '#ifndef X_H\n#define X_H\nx = 1;\n#ifdef _WIN32\ny = 1;\n#else\nz = 1;\n#endif\nw = 1;\n#endif\n', True)}
check('lines inside #if groups are conditional, an include guard aside', cm,
      {3: False, 5: True, 7: True, 9: False})

# ---- the list of equivalent mutants -----------------------------------------------

with tempfile.TemporaryDirectory() as tmp:
    good = os.path.join(tmp, 'good.txt')
    with open(good, 'w') as fh:
        fh.write('# comment\ncompiler/a.c: rel\n- if (a < b)\n+ if (a <= b)\nwhy: a is never b\n'
                 '  (continued)\n')
    entries, errors = mutate.read_equivalent(good)
    check('an entry is read', (errors, [(e['path'], e['op'], e['old'], e['new'], e['why'])
                                        for e in entries]),
          ([], [('compiler/a.c', 'rel', 'if (a < b)', 'if (a <= b)', 'a is never b (continued)')]))
    bad = os.path.join(tmp, 'bad.txt')
    with open(bad, 'w') as fh:
        fh.write('compiler/a.c: rel\n- if (a < b)\n+ if (a <= b)\n\ncompiler/a.c: nosuchop\n')
    check('an entry without its reason, or with an unknown operator, is an error',
          len(mutate.read_equivalent(bad)[1]), 2)

    # A tree with one file, an entry that matches and one that is stale.
    os.makedirs(os.path.join(tmp, 'tree', 'compiler'))
    with open(os.path.join(tmp, 'tree', 'compiler', 'a.c'), 'w') as fh:
        fh.write('int f(int a, int b)\n{\n    if (a < b)\n        return 1;\n    return 0;\n}\n')
    lst = os.path.join(tmp, 'list.txt')
    with open(lst, 'w') as fh:
        fh.write('compiler/a.c: rel\n- if (a < b)\n+ if (a <= b)\nwhy: listed\n\n'
                 'compiler/a.c: rel\n- if (a > b)\n+ if (a >= b)\nwhy: stale\n')
    r = subprocess.run([sys.executable, os.path.join(HERE, 'mutate.py'), '--src', 'compiler/*.c',
                        '--equivalent', lst, '--list', '--count', '3'],
                       cwd=os.path.join(tmp, 'tree'), capture_output=True, text=True)
    check('a stale entry is reported and fails the run',
          (r.returncode, [l.split(': ', 1)[1] for l in r.stdout.splitlines() if 'stale' in l]),
          (1, ['stale: matches no mutant: compiler/a.c: if (a > b) -> if (a >= b)']))

# ---- the sample ------------------------------------------------------------------

def sample(text, seed=1, count=5):
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, 'compiler'))
        with open(os.path.join(tmp, 'compiler', 'a.c'), 'w') as fh:
            fh.write(text)
        r = subprocess.run([sys.executable, os.path.join(HERE, 'mutate.py'), '--src', 'compiler/*.c',
                            '--list', '--count', str(count), '--seed', str(seed)],
                           cwd=tmp, capture_output=True, text=True)
        return [l.split(' ', 1)[1].split(': ', 1)[1] for l in r.stdout.splitlines()[1:]]


body = ''.join('    x%d = a < %d && b > %d;\n' % (i, i, i) for i in range(20))
one = sample('{\n' + body)
check('the same seed draws the same sample', sample('{\n' + body), one)
check('another seed draws another', sample('{\n' + body, seed=2) != one, True)
check('an edit elsewhere leaves the sample as it was (new mutants may join it)',
      [w for w in sample('{\n    y = 7 + q;\n' + body, count=40) if w in one] == one, True)

# ---- running a command ---------------------------------------------------------------

with tempfile.TemporaryDirectory() as tmp:
    tree = os.path.join(tmp, 'tree')
    os.makedirs(os.path.join(tree, 'tmp'))
    pidfile = os.path.join(tmp, 'pid')
    # A child in a session of its own that would sleep on after the command.
    cmd = ['sh', '-c', 'setsid sh -c "echo \\$\\$ >%s; exec sleep 300" & sleep 1' % pidfile]
    rc = mutate.run(cmd, tree, dict(os.environ, TMPDIR=os.path.join(tree, 'tmp')), 60, os.path.join(tmp, 'log'))
    with open(pidfile) as fh:
        pid = int(fh.read())
    for _ in range(50):  # SIGKILL is delivered at once; its reaping by init may take a moment
        try:
            with open('/proc/%d/stat' % pid) as fh:
                gone = fh.read().split(') ')[1][0] == 'Z'
        except OSError:
            gone = True
        if gone:
            break
        time.sleep(0.1)
    check('run() ends what the command left running from its tree outside its process group', (rc, gone), (0, True))

print('mutate.py: %d failed' % failed)
sys.exit(1 if failed else 0)
