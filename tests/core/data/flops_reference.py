#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent reference for tst_flops: FLOPs of the matrix and attention ops of a Kineto trace,
counted as torch.utils.flop_counter counts them, joined to their kernels by External id.

usage: flops_reference.py TRACE.json[.gz]  ->  prints "ops flops kernel_ns" and one line per (op, dims)
"""
import collections, gzip, json, sys

path = sys.argv[1]
with (gzip.open if path.endswith('.gz') else open)(path, 'rt') as f:
    trace = json.load(f)

def flops(name, dims):
    if name in ('aten::mm', 'aten::_scaled_mm'):
        (m, k), (_, n) = dims[0], dims[1]
        return 2 * m * k * n
    if name == 'aten::addmm':
        (m, k), (_, n) = dims[1], dims[2]
        return 2 * m * k * n
    if name == 'aten::bmm':
        (b, m, k), (_, _, n) = dims[0], dims[1]
        return 2 * b * m * k * n
    if name == 'aten::baddbmm':
        (b, m, k), (_, _, n) = dims[1], dims[2]
        return 2 * b * m * k * n
    if name in ('aten::_flash_attention_forward', 'aten::_efficient_attention_forward'):
        q, k, v = dims[0], dims[1], dims[2]
        if len(q) != 4:
            return None
        b, lq, h, d = q
        return 2 * b * h * lq * k[1] * (d + v[3])
    return None

ops = {}
for e in trace['traceEvents']:
    a = e.get('args', {})
    if e.get('cat') == 'cpu_op' and 'External id' in a and 'Input Dims' in a:
        fl = flops(e['name'], a['Input Dims'])
        if fl:
            ops[a['External id']] = (e['name'], json.dumps(a['Input Dims']), fl)
kernel_ns = collections.Counter()
for e in trace['traceEvents']:
    if e.get('cat') in ('kernel', 'gpu_memcpy', 'gpu_memset') and e.get('args', {}).get('External id') in ops:
        kernel_ns[e['args']['External id']] += round(e['dur'] * 1000)
total_ops = sum(1 for x in ops if kernel_ns[x] > 0)
total_flops = sum(ops[x][2] for x in ops if kernel_ns[x] > 0)
print(total_ops, total_flops, sum(kernel_ns.values()))
