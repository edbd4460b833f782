#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# compare-outputs.py OLD NEW [SPEC...]: every tracked spec (or each SPEC)
# built by two segc binaries under every option set that changes what
# build writes (--annotate, --emit-selftest, each --ddi combination,
# --lookup-budget values, -MD depfiles, hook files); prints each run that
# differs in exit status, standard output, standard error or any file
# written, and a total.  For a change to the emitter that must not change
# its output: build the old binary once (a git worktree of main), then
#
#   python3 build-aux/compare-outputs.py /path/to/old/segc build/segc
#
# from the top of the tree; JOBS=N runs N builds at a time (default 2).
import os, subprocess, sys, shutil, tempfile, filecmp
from concurrent.futures import ThreadPoolExecutor

old, new = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
specs = sys.argv[3:] or subprocess.run(['git', 'ls-files', '*.yaml'], capture_output=True, text=True).stdout.split()
specs = [os.path.abspath(s) for s in specs]
top = os.getcwd()

hooks = tempfile.mkdtemp(prefix='cmp-hooks-')
open(f'{hooks}/hook-banner.txt', 'w').write('/* House banner for {{ board.name }} */\n\n')
open(f'{hooks}/hook-precomp.txt', 'w').write('#include "precomp.h"\n')
open(f'{hooks}/hook-trace.txt', 'w').write('#define SEGC_TRACE_QUERY(F, T, S) ((void)(F), (void)(T), (void)(S))\n')
open(f'{hooks}/hook-prefix.txt', 'w').write('Xyz\n')
hooks2 = tempfile.mkdtemp(prefix='cmp-hooks2-')
open(f'{hooks2}/hook-banner.txt', 'w').write('/* only a banner */\n')

SETS = [
    [], ['--annotate'], ['--emit-selftest'], ['--annotate', '--emit-selftest'],
    ['-v', '--emit-selftest'],
] + [['--ddi', d, '--emit-selftest'] for d in ['qs', 'qs3', 'qs4', 'qs,qs3', 'qs,qs4', 'qs3,qs4', 'qs,qs3,qs4']] + [
    ['--lookup-budget', b, '--emit-selftest'] for b in ['0', '64', '1KiB', '64KiB', '16MiB']] + [
    ['-MD', '-MF', 'dep.d', '-MT', 'tgt', '-MP', '--deps-list', 'deps.txt'],
    ['-MD', '-MF', 'dep.d'],
    ['--templates', hooks, '--emit-selftest', '--annotate', '-MD', '-MF', 'dep.d'],
    ['--templates', hooks2, '--emit-selftest'],
]

def run(binary, spec, opts, d):
    os.makedirs(d)
    p = subprocess.run([binary, 'build', spec, '-o', 'out'] + opts, cwd=d, capture_output=True, timeout=60,
                       env=dict(os.environ, SEGC_COLOR='never', NO_COLOR='1'))
    files = {}
    for root, _, names in os.walk(d):
        for n in names:
            path = os.path.join(root, n)
            files[os.path.relpath(path, d)] = open(path, 'rb').read()
    return p.returncode, p.stdout.replace(d.encode(), b'$D'), p.stderr.replace(d.encode(), b'$D'), files

work = tempfile.mkdtemp(prefix='cmp-')

def one(job):
    i, spec, opts = job
    base = f'{work}/{i}'
    a = run(old, spec, opts, base + '/old')
    b = run(new, spec, opts, base + '/new')
    shutil.rmtree(base)
    diffs = []
    if a[0] != b[0]:
        diffs.append(f'exit {a[0]} -> {b[0]}')
    if a[1] != b[1]:
        diffs.append('stdout differs')
    if a[2] != b[2]:
        diffs.append('stderr differs:\n    old: ' + a[2].decode(errors='replace')[:600].replace('\n', '\n    old: ') +
                     '\n    new: ' + b[2].decode(errors='replace')[:600].replace('\n', '\n    new: '))
    for f in sorted(set(a[3]) | set(b[3])):
        if a[3].get(f) != b[3].get(f):
            diffs.append(f'file {f} ' + ('missing in new' if f not in b[3] else 'new only' if f not in a[3] else 'differs'))
    return spec, opts, diffs, a[0]

jobs = [(i, s, o) for i, (s, o) in enumerate((s, o) for s in specs for o in SETS)]
bad = built = 0
with ThreadPoolExecutor(max_workers=int(os.environ.get('JOBS', '2'))) as ex:
    for spec, opts, diffs, rc in ex.map(one, jobs):
        built += rc == 0
        if diffs:
            bad += 1
            print(f'DIFF {os.path.relpath(spec, top)} {" ".join(opts)}'.replace(hooks, 'HOOKS').replace(hooks2, 'HOOKS2'))
            for d in diffs:
                print('  ' + d)
print(f'{len(jobs)} runs ({built} exit 0), {bad} differ')
shutil.rmtree(work); shutil.rmtree(hooks); shutil.rmtree(hooks2)
sys.exit(1 if bad else 0)
