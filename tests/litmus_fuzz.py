#!/usr/bin/env python3
"""Fuzz `vfsmc litmus` with mutated and generated herd7 C litmus tests.

    tests/litmus_fuzz.py VFSMC SOURCE_DIR COUNT [SEED]

Writes COUNT tests (half mutated from the corpus in litmus/, half generated
from the grammar with deep nesting, big and odd numbers, control characters
and many threads) into batches of 200 in a temporary directory, and runs
`vfsmc litmus --check --time-limit 0.2` over each batch, and
`vfsmc litmus --witness --time-limit 0.2` on every tenth file alone. Fails when a batch
ends with anything but exit 0, 1 or 2, runs past its timeout, or prints a
raw control character or an error of more than one line; the culprit files
of a failing batch are then run one by one and named. With PARSER (the
`litmus_parse` harness, an ASan+UBSan build of the parser alone) in the
environment, every file also goes through it. Deterministic for a seed.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

BATCH = 200
RAW = re.compile(rb'[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]')

TOKENS = [b'(', b')', b'{', b'}', b'[', b']', b';', b',', b'*', b'&', b'-', b'~', b'!', b'/\\', b'\\/', b'==', b'<<', b'>>',
          b'/', b'%', b'+', b'=', b'(*', b'*)', b'/*', b'*/', b'//', b'"', b'P0', b'P4', b'P99999999999',
          b'READ_ONCE(*x)', b'WRITE_ONCE(*y, 1);', b'smp_mb();', b'spin_lock(s);', b'if (', b'else', b'int *r9;',
          b'exists', b'~exists', b'forall', b'filter', b'locations [', b'0:r0=', b'x=', b'Result: ', b'vfsmc: Never (',
          b'2147483647', b'2147483648', b'-2147483648', b'4294967296', b'99999999999999999999', b'0x7fffffff', b'0xffffffff',
          b'0x', b'09', b'1e5', b'\x00', b'\x1b[31m', b'\xe2\x80\xae', b'\x7f', b'\xc2\x85', b'\xff\xfe', b'\n', b'\r\n', b'\t',
          b'atomic_t *v', b'atomic_inc_return(v)', b'cmpxchg(x, 0, 1)', b'xchg_relaxed(x, 2)', b'rcu_read_lock();',
          b'synchronize_srcu(ss);', b'struct srcu_struct *ss', b'spinlock_t *s', b'int **p', b'NULL', b'C ', b'\\']


def mutate(rng, text, corpus):
    data = bytearray(text)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(7)
        n = len(data)
        i = rng.randrange(n + 1)
        if op == 0 and n:  # delete a range
            del data[i:i + rng.randint(1, 40)]
        elif op == 1 and n:  # duplicate a range, sometimes many times
            j = min(n, i + rng.randint(1, 60))
            data[i:i] = data[i:j] * rng.choice([1, 2, 3, 50, 500])
        elif op == 2:  # a token
            data[i:i] = rng.choice(TOKENS)
        elif op == 3:  # random bytes
            data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 4 and n:  # a number replaced
            m = list(re.finditer(rb'\b\d+\b', bytes(data)))
            if m:
                k = rng.choice(m)
                data[k.start():k.end()] = rng.choice([b'0', b'-1', b'2147483647', b'2147483648', b'4294967296',
                                                     b'99999999999999999999', b'0x80000000', b'31', b'32', b'64'])
        elif op == 5:  # splice in another test
            other = rng.choice(corpus)
            a = rng.randrange(len(other) + 1)
            data[i:i] = other[a:a + rng.randint(1, 400)]
        elif op == 6 and n:  # one byte flipped
            k = rng.randrange(n)
            data[k] = rng.randrange(256)
    return bytes(data)


def expr(rng, depth, regs, params):
    if depth <= 0 or rng.random() < 0.25:
        c = rng.random()
        if c < 0.3 and regs:
            return rng.choice(regs)
        if c < 0.5 and params:
            return f'READ_ONCE(*{rng.choice(params)})'
        return rng.choice(['0', '1', '2', '-1', '7', '31', '32', '2147483647', '-2147483648', '0x10', '65536'])
    k = rng.randrange(4)
    if k == 0:
        op = rng.choice(['+', '-', '*', '/', '%', '<<', '>>', '&', '|', '^', '==', '!=', '<', '>=', '&&', '||'])
        return f'{expr(rng, depth - 1, regs, params)} {op} {expr(rng, depth - 1, regs, params)}'
    if k == 1:
        return f'({expr(rng, depth - 1, regs, params)})'
    if k == 2:
        return rng.choice(['- ', '~', '!']) + expr(rng, depth - 1, regs, params)
    if params:
        p = rng.choice(params)
        return rng.choice([f'smp_load_acquire({p})', f'READ_ONCE(*{p})', f'xchg({p}, {expr(rng, depth - 1, regs, params)})',
                           f'cmpxchg({p}, 0, {expr(rng, depth - 1, regs, params)})'])
    return '1'


def stmts(rng, depth, regs, params, n):
    out = []
    for _ in range(n):
        k = rng.randrange(6)
        if k <= 1 and regs:
            out.append(f'{rng.choice(regs)} = {expr(rng, rng.randint(0, 12), regs, params)};')
        elif k == 2 and params:
            out.append(f'WRITE_ONCE(*{rng.choice(params)}, {expr(rng, rng.randint(0, 6), regs, params)});')
        elif k == 3 and depth > 0:
            body = ' '.join(stmts(rng, depth - 1, regs, params, rng.randint(1, 3)))
            els = f' else {{ {" ".join(stmts(rng, depth - 1, regs, params, 1))} }}' if rng.random() < 0.3 else ''
            out.append(f'if ({expr(rng, 3, regs, params)}) {{ {body} }}{els}')
        elif k == 4:
            out.append(rng.choice(['smp_mb();', 'smp_wmb();', 'smp_rmb();']))
        elif params:
            out.append(f'smp_store_release({rng.choice(params)}, {rng.randint(0, 3)});')
    return out


def generated(rng, i):
    nthreads = rng.choice([1, 2, 2, 3, 4, 5])
    params = ['x', 'y', 'z'][:rng.randint(1, 3)]
    name = rng.choice(['gen', 'gen\x1b[2J', 'gen\u202eevil', 'g\x00n', 'g' * 3000, 'gen\x7f'])
    text = f'C {name}-{i}\n(* Result: {rng.choice(["Never", "Sometimes", "Always"])} *)\n{{ x=0; y={rng.randint(-3, 3)}; }}\n'
    for p in range(nthreads):
        regs = [f'r{k}' for k in range(rng.randint(1, 3))]
        decl = f'\tint {", ".join(regs)};\n' if regs else ''
        body = '\n\t'.join(stmts(rng, rng.choice([0, 1, 2, 3, 20]), regs, params, rng.randint(1, 5)))
        text += f'P{p}({", ".join("int *" + q for q in params)})\n{{\n{decl}\t{body}\n}}\n\n'
    cond = ' /\\ '.join(f'{rng.randrange(nthreads)}:r0={rng.randint(0, 2)}' for _ in range(rng.choice([1, 2, 3, 60])))
    if rng.random() < 0.1:
        cond = '~' * rng.choice([10, 100, 10000]) + 'x=0'
    text += f'{rng.choice(["exists", "~exists", "forall"])} ({cond})\n'
    if rng.random() < 0.05:  # nesting far past the limits
        text = text.replace('\tint', '\t' + '{' * 20000 + '}' * 20000 + '\n\tint', 1)
    return text.encode('utf-8', 'surrogateescape')


def litmus_cmd(vfsmc, path):
    # LITMUS_FUZZ_TIME_LIMIT= (empty) runs without --time-limit (a binary without it).
    limit = os.environ.get('LITMUS_FUZZ_TIME_LIMIT', '0.2')
    return [vfsmc, 'litmus', '--check'] + (['--time-limit', limit] if limit else []) + [path]


def run_batch(vfsmc, d, timeout):
    try:
        p = subprocess.run(litmus_cmd(vfsmc, d), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 'timeout', b'', b''
    return p.returncode, p.stdout, p.stderr


def witness_problem(vfsmc, path):
    """One file under --witness: the witness search and its minimization
    run executions after one the search stopped inside (a crash there went
    unseen while only --check was fuzzed)."""
    limit = os.environ.get('LITMUS_FUZZ_TIME_LIMIT', '0.2')
    cmd = [vfsmc, 'litmus', '--witness'] + (['--time-limit', limit] if limit else []) + [path]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=30)
    except subprocess.TimeoutExpired:
        return '--witness: no answer within 30 s'
    if p.returncode not in (0, 1, 2):
        return f'--witness: exit {p.returncode}'
    if RAW.search(p.stdout) or RAW.search(p.stderr):
        return '--witness: a raw control character in the output'
    if p.returncode == 2 and p.stderr.count(b'\n') != 1:
        return '--witness: an error of other than one line'
    return None


def problem(rc, out, err):
    if rc == 'timeout':
        return 'no answer within the timeout'
    if rc not in (0, 1, 2):
        return f'exit {rc}'
    if RAW.search(out) or RAW.search(err):
        return 'a raw control character in the output'
    # --check ends with its counts whatever the tests held.
    if not re.search(rb'\d+ agree, \d+ differ .*\d+ unsupported[^\n]*\n$', out):
        return 'no summary line: ' + (err.decode('utf-8', 'replace').splitlines() or ['(nothing on stderr)'])[-1][:200]
    for line in out.split(b'\n'):
        if line.startswith(b'ERROR') and b'\n' in line:
            return 'an error of more than one line'
    return None


def main():
    vfsmc, src, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 34
    parser = os.environ.get('PARSER')
    rng = random.Random(seed)
    corpus = []
    for f in sorted(os.listdir(os.path.join(src, 'litmus'))):
        if f.endswith('.litmus'):
            with open(os.path.join(src, 'litmus', f), 'rb') as fh:
                corpus.append(fh.read())
    tmp = tempfile.mkdtemp(prefix='litmus-fuzz-')
    failures = []
    try:
        done = 0
        while done < count:
            d = os.path.join(tmp, f'batch{done // BATCH}')
            os.mkdir(d)
            n = min(BATCH, count - done)
            for i in range(n):
                k = done + i
                text = mutate(rng, rng.choice(corpus), corpus) if k % 2 == 0 else generated(rng, k)
                with open(os.path.join(d, f't{k:05d}.litmus'), 'wb') as fh:
                    fh.write(text)
            done += n
            rc, out, err = run_batch(vfsmc, d, 60 + n)
            why = problem(rc, out, err)
            if why:
                # Name the files: each alone.
                for f in sorted(os.listdir(d)):
                    path = os.path.join(d, f)
                    try:
                        p = subprocess.run(litmus_cmd(vfsmc, path), capture_output=True, timeout=30)
                        w = problem(p.returncode, p.stdout, p.stderr)
                    except subprocess.TimeoutExpired:
                        w = 'no answer within 30 s'
                    if w:
                        keep = os.path.join(tempfile.gettempdir(), f'litmus-fuzz-{seed}-{f}')
                        shutil.copy(path, keep)
                        failures.append(f'{keep}: {w}')
                if not any(x for x in failures):
                    failures.append(f'batch {d}: {why} (no single file reproduces it)')
            # Every tenth file also alone under --witness.
            for f in sorted(os.listdir(d))[::10]:
                w = witness_problem(vfsmc, os.path.join(d, f))
                if w:
                    keep = os.path.join(tempfile.gettempdir(), f'litmus-fuzz-{seed}-{f}')
                    shutil.copy(os.path.join(d, f), keep)
                    failures.append(f'{keep}: {w}')
            if parser:
                files = sorted(os.path.join(d, f) for f in os.listdir(d))
                p = subprocess.run([parser] + files, capture_output=True, timeout=600)
                if p.returncode != 0:
                    failures.append(f'{parser} on batch {d}: exit {p.returncode}: {p.stderr[-2000:].decode("utf-8", "replace")}')
            if failures:
                break
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print('\n'.join(failures))
        return 1
    print(f'litmus fuzz: {count} tests (seed {seed}): no crash, no hang, no raw control character')
    return 0


if __name__ == '__main__':
    sys.exit(main())
