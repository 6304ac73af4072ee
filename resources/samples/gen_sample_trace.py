#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes sample_training_step.pt.trace.json.gz: a small, deterministic PyTorch/Kineto trace.

The trace mimics what torch.profiler writes for three training steps of a small MLP on one GPU:
ProfilerStep#N annotations on the main thread, nested cpu_op slices (aten::linear > aten::addmm ...),
cudaLaunchKernel / cudaMemcpyAsync runtime calls with correlation ids, the matching kernels and
memcpys on GPU stream 7 (pid 0, tid 7), ac2g flow pairs joining each launch to its GPU activity,
a backward pass on the autograd thread, an optimizer step, and process/thread name metadata.
Timestamps and durations are microseconds with 3 decimals, as Kineto writes them.

With --after-bump it writes sample_training_step_after_bump.pt.trace.json.gz instead: the same job a
day later, after a library upgrade, for the Diff tab. cuBLAS now picks a slower kernel for the GEMMs with
k >= 2048 (an sm80_xmma ffma kernel at ~10.5 instead of ~14 TFLOP/s) and the DataLoader takes ~3 ms
per batch instead of ~0.2 ms (a changed worker default), so the GPU waits on input: each step is about
a third longer, in compute and in idle time.

Standard library only; a fixed seed and gzip mtime 0 make the output byte-identical on every run.
Usage: gen_sample_trace.py [OUTPUT] [--steps N] [--after-bump]
"""

import argparse
import gzip
import json
import os
import random

PID = 48213          # the training process
MAIN_TID = 48213     # Python main thread
BWD_TID = 48301      # autograd engine thread
GPU_PID = 0          # Kineto puts device 0 activity on pid 0
STREAM = 7           # default stream
BASE_US = 1712195495500000.0

HIDDEN = [1024] + [4096] * 14 + [1024]  # a 15-layer MLP
BATCH = 256
AFTER_BUMP = False   # --after-bump: the slower GEMM and data loading described above


class Trace:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.events = []
        self.correlation = 4100
        self.external_id = 100
        self.ev_idx = 0
        self.gpu_free_us = BASE_US  # when stream 7 next becomes idle

    def jitter(self, us, spread=0.15):
        return us * (1.0 + self.rng.uniform(-spread, spread))

    def next_external(self):
        self.external_id += 1
        return self.external_id

    def slice(self, cat, name, tid, ts, dur, args=None, pid=PID):
        ev = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur}
        if args is not None:
            ev["args"] = args
        self.events.append(ev)
        return ev

    def cpu_op(self, name, tid, ts, dur, dims=None):
        args = {"External id": self.next_external(), "Ev Idx": self.ev_idx}
        self.ev_idx += 1
        if dims is not None:
            args["Input Dims"] = dims
            args["Input type"] = ["float"] * len(dims)
        return self.slice("cpu_op", name, tid, ts, dur, args)

    def launch(self, tid, ts, external, kind, name, gpu_us, extra=None):
        """A runtime call at `ts` on `tid` and its GPU activity; returns the runtime call's end."""
        self.correlation += 1
        corr = self.correlation
        api = {"kernel": "cudaLaunchKernel", "gpu_memcpy": "cudaMemcpyAsync"}[kind]
        call_dur = self.jitter(6.5 if kind == "kernel" else 9.0)
        self.slice("cuda_runtime", api, tid, ts, call_dur,
                   {"External id": external, "cbid": 211 if kind == "kernel" else 41, "correlation": corr})
        self.events.append({"ph": "s", "id": corr, "pid": PID, "tid": tid, "ts": ts,
                            "cat": "ac2g", "name": "ac2g"})
        gpu_ts = max(ts + call_dur * 0.6 + self.rng.uniform(2.0, 6.0), self.gpu_free_us + self.rng.uniform(0.8, 2.5))
        gpu_dur = self.jitter(gpu_us)
        args = {"External id": external, "queued": 0, "device": 0, "context": 1, "stream": STREAM,
                "correlation": corr}
        if extra:
            args.update(extra)
        self.slice(kind, name, STREAM, gpu_ts, gpu_dur, args, pid=GPU_PID)
        self.events.append({"ph": "f", "id": corr, "pid": GPU_PID, "tid": STREAM, "ts": gpu_ts,
                            "cat": "ac2g", "name": "ac2g", "bp": "e"})
        self.gpu_free_us = gpu_ts + gpu_dur
        return ts + call_dur

    def kernel_op(self, path, tid, ts, kernels, dims=None):
        """Nested cpu_ops (outer first) around one or more kernel launches; returns the end time."""
        t = ts
        opened = []
        for name in path:
            t += self.jitter(2.0)
            opened.append((name, t))
        externals = self.external_id + len(path)
        for kname, gpu_us, grid, block in kernels:
            t += self.jitter(3.0)
            t = self.launch(tid, t, externals, "kernel", kname, gpu_us,
                            {"registers per thread": 64, "shared memory": 16384, "grid": grid, "block": block,
                             "warps per SM": 12.8, "est. achieved occupancy %": 50})
        end = t + self.jitter(2.5)
        for i, (name, start) in reversed(list(enumerate(opened))):
            self.cpu_op(name, tid, start, end - start, dims if i == 0 else None)
            end += self.jitter(1.0)
        return end

    def memcpy(self, path, tid, ts, nbytes, direction):
        t = ts
        opened = []
        for name in path:
            t += self.jitter(2.0)
            opened.append((name, t))
        kind = {"HtoD": "Memcpy HtoD (Pageable -> Device)", "DtoH": "Memcpy DtoH (Device -> Pageable)"}[direction]
        gpu_us = nbytes / 12.0e3  # ~12 GB/s pageable
        t += self.jitter(3.0)
        t = self.launch(tid, t, self.external_id + len(path), "gpu_memcpy", kind, gpu_us,
                        {"bytes": nbytes, "memory bandwidth (GB/s)": round(nbytes / (gpu_us * 1e3), 3)})
        end = t + self.jitter(2.0)
        if direction == "DtoH":  # .item() waits for the copy
            end = max(end, self.gpu_free_us + 3.0)
            self.slice("cuda_runtime", "cudaStreamSynchronize", tid, t + 0.5, end - t - 0.6,
                       {"External id": self.external_id + len(path), "cbid": 131, "correlation": 0})
        for name, start in reversed(opened):
            self.cpu_op(name, tid, start, end - start)
            end += self.jitter(1.0)
        return end


def gemm_kernel(m, n, k):
    if k >= 2048 and AFTER_BUMP:
        name = "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_execute_kernel_cublas"
        return (name, 2.0 * m * n * k / 10.5e6, [max(1, n // 64), max(1, m // 64), 1], [128, 1, 1])
    name = "ampere_sgemm_128x64_tn" if k >= 2048 else "ampere_sgemm_64x64_nn"
    gpu_us = 2.0 * m * n * k / 14.0e6  # ~14 TFLOP/s fp32
    return (name, gpu_us, [max(1, n // 64), max(1, m // 128), 1], [128, 1, 1])


def elementwise_kernel(name, elems):
    return (f"void at::native::vectorized_elementwise_kernel<4, {name}, at::detail::Array<char*, 2> >"
            f"(int, {name}, at::detail::Array<char*, 2>)", max(1.5, elems / 1.2e6), [elems // 512 + 1, 1, 1],
            [128, 1, 1])


def training_step(tr, step, ts):
    tid = MAIN_TID
    step_start = ts
    t = ts + tr.jitter(4.0)

    # Input pipeline: next batch, then host-to-device copies.
    dl_start = t
    t += tr.jitter(3000.0 if AFTER_BUMP else 180.0, 0.4)
    tr.slice("user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", tid, dl_start,
             t - dl_start, {"External id": tr.next_external(), "Ev Idx": tr.ev_idx})
    tr.ev_idx += 1
    t = tr.memcpy(["aten::to", "aten::_to_copy", "aten::copy_"], tid, t + 3.0, BATCH * HIDDEN[0] * 4, "HtoD")
    t = tr.memcpy(["aten::to", "aten::_to_copy", "aten::copy_"], tid, t + 3.0, BATCH * 8, "HtoD")

    # Forward.
    fwd_start = t
    t = tr.kernel_op(["aten::zeros", "aten::zero_", "aten::fill_"], tid, t + 2.0,
                     [elementwise_kernel("at::native::FillFunctor<float>", 4096)])
    for i in range(len(HIDDEN) - 1):
        k, n = HIDDEN[i], HIDDEN[i + 1]
        t0 = t + tr.jitter(3.0)
        t1 = tr.cpu_op("aten::t", tid, t0, tr.jitter(5.0))["ts"]
        tr.cpu_op("aten::transpose", tid, t1 + 0.8, tr.jitter(2.5))
        tr.cpu_op("aten::as_strided", tid, t1 + 1.5, tr.jitter(0.9))
        t2 = tr.kernel_op(["aten::addmm"], tid, t0 + 6.0, [gemm_kernel(BATCH, n, k)],
                          [[n], [BATCH, k], [k, n], [], []])
        tr.cpu_op("aten::linear", tid, t0 - 1.0, t2 - t0 + 2.0, [[BATCH, k], [n, k], [n]])
        t = t2 + 2.0
        if i < len(HIDDEN) - 2:
            t = tr.kernel_op(["aten::relu", "aten::clamp_min"], tid, t + 2.0,
                             [elementwise_kernel("at::native::(anonymous namespace)::clamp_min_scalar_kernel_impl",
                                                 BATCH * n)])
            t = tr.kernel_op(["aten::dropout", "aten::native_dropout"], tid, t + 2.0,
                             [elementwise_kernel("at::native::(anonymous namespace)::fused_dropout_kernel_vec",
                                                 BATCH * n)])
    t = tr.kernel_op(["aten::cross_entropy_loss", "aten::log_softmax", "aten::_log_softmax"], tid, t + 2.0,
                     [("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
                       "at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)",
                       9.0, [BATCH, 1, 1], [512, 1, 1])])
    t = tr.kernel_op(["aten::nll_loss_nd", "aten::nll_loss", "aten::nll_loss_forward"], tid, t + 2.0,
                     [("void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, "
                       "float, long>(float*, float*, float const*, long const*, float const*, bool, long, long, "
                       "long, long)", 4.0, [1, 1, 1], [32, 1, 1])])
    tr.slice("user_annotation", "## forward ##", tid, fwd_start + 0.5, t - fwd_start + 1.0,
             {"External id": tr.next_external(), "Ev Idx": tr.ev_idx})
    tr.ev_idx += 1

    # Backward on the autograd thread, launched from the main thread.
    bwd_call = t + 3.0
    bt = bwd_call + tr.jitter(12.0)
    for i in reversed(range(len(HIDDEN) - 1)):
        k, n = HIDDEN[i], HIDDEN[i + 1]
        eval_start = bt
        bt += tr.jitter(3.0)
        inner_start = bt
        bt = tr.kernel_op(["aten::mm"], BWD_TID, bt + 2.0, [gemm_kernel(BATCH, k, n)])
        bt = tr.kernel_op(["aten::mm"], BWD_TID, bt + 2.0, [gemm_kernel(n, k, BATCH)])
        bt = tr.kernel_op(["aten::sum"], BWD_TID, bt + 2.0,
                          [("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
                            "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>"
                            "::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >"
                            "(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
                            "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::"
                            "{lambda(float, float)#1}>, unsigned int, float, 4>)", 6.0, [n // 32, 1, 1],
                            [32, 16, 1])])
        tr.cpu_op("AddmmBackward0", BWD_TID, inner_start, bt - inner_start + 1.0)
        bt += 2.0
        tr.cpu_op("autograd::engine::evaluate_function: AddmmBackward0", BWD_TID, eval_start, bt - eval_start)
        if i > 0:
            bt = tr.kernel_op(["autograd::engine::evaluate_function: ThresholdBackward0", "ThresholdBackward0",
                               "aten::threshold_backward"], BWD_TID, bt + 2.0,
                              [elementwise_kernel("at::native::(anonymous namespace)::threshold_kernel_impl",
                                                  BATCH * k)])
    bt += tr.jitter(5.0)
    tr.cpu_op("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", BWD_TID, bt,
              tr.jitter(6.0))
    bt += 8.0
    # The main thread waits in backward() until the engine is done.
    tr.slice("cpu_op", "torch::autograd::backward", tid, bwd_call,
             bt - bwd_call + 4.0, {"External id": tr.next_external(), "Ev Idx": tr.ev_idx})
    tr.ev_idx += 1
    t = bt + 6.0

    # Optimizer.
    opt_start = t
    t = tr.kernel_op(["aten::_foreach_mul_"], tid, t + 3.0,
                     [elementwise_kernel("at::native::(anonymous namespace)::multi_tensor_apply_kernel", 1 << 20)])
    t = tr.kernel_op(["aten::_foreach_add_"], tid, t + 3.0,
                     [elementwise_kernel("at::native::(anonymous namespace)::multi_tensor_apply_kernel", 1 << 20)])
    t = tr.kernel_op(["aten::_foreach_addcmul_"], tid, t + 3.0,
                     [elementwise_kernel("at::native::(anonymous namespace)::multi_tensor_apply_kernel", 1 << 20)])
    t = tr.kernel_op(["aten::_foreach_sqrt"], tid, t + 3.0,
                     [elementwise_kernel("at::native::(anonymous namespace)::multi_tensor_apply_kernel", 1 << 20)])
    t = tr.kernel_op(["aten::_foreach_addcdiv_"], tid, t + 3.0,
                     [elementwise_kernel("at::native::(anonymous namespace)::multi_tensor_apply_kernel", 1 << 20)])
    tr.slice("user_annotation", "Optimizer.step#Adam.step", tid, opt_start, t - opt_start + 3.0,
             {"External id": tr.next_external(), "Ev Idx": tr.ev_idx})
    tr.ev_idx += 1
    t += 5.0
    t = tr.kernel_op(["Optimizer.zero_grad#Adam.zero_grad", "aten::zero_", "aten::fill_"], tid, t,
                     [elementwise_kernel("at::native::FillFunctor<float>", 1 << 18)])
    # loss.item(): copy the loss back and wait for the GPU.
    t = tr.memcpy(["aten::item", "aten::_local_scalar_dense"], tid, t + 4.0, 4, "DtoH")
    t += tr.jitter(20.0)
    tr.slice("user_annotation", f"ProfilerStep#{step}", tid, step_start, t - step_start,
             {"External id": tr.next_external(), "Ev Idx": tr.ev_idx})
    tr.ev_idx += 1
    return t


def fmt_number(v):
    return f"{v:.3f}" if isinstance(v, float) else json.dumps(v)


def render_event(ev):
    parts = []
    for key, value in ev.items():
        if key == "args":
            continue
        parts.append(f'"{key}": {fmt_number(value) if key in ("ts", "dur") else json.dumps(value)}')
    text = "  {\n    " + ", ".join(parts)
    if "args" in ev:
        text += ',\n    "args": {\n      ' + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}"
                                                    for k, v in ev["args"].items()) + "\n    }"
    return text + "\n  }"


def build(steps):
    tr = Trace(seed=20240403)
    t = BASE_US + 1200.0
    for step in range(10, 10 + steps):
        t = training_step(tr, step, t) + tr.jitter(30.0)
    end = max(t, tr.gpu_free_us) + 50.0
    meta = []
    for pid, name, labels in ((PID, "python3", "CPU"), (GPU_PID, "python3", "GPU 0")):
        meta.append({"name": "process_name", "ph": "M", "ts": BASE_US, "pid": pid, "tid": 0, "args": {"name": name}})
        meta.append({"name": "process_labels", "ph": "M", "ts": BASE_US, "pid": pid, "tid": 0,
                     "args": {"labels": labels}})
        meta.append({"name": "process_sort_index", "ph": "M", "ts": BASE_US, "pid": pid, "tid": 0,
                     "args": {"sort_index": pid if pid else 0x1000000}})
    for tid, name in ((MAIN_TID, "python3"), (BWD_TID, "python3")):
        meta.append({"name": "thread_name", "ph": "M", "ts": BASE_US, "pid": PID, "tid": tid, "args": {"name": name}})
        meta.append({"name": "thread_sort_index", "ph": "M", "ts": BASE_US, "pid": PID, "tid": tid,
                     "args": {"sort_index": tid}})
    meta.append({"name": "thread_name", "ph": "M", "ts": BASE_US, "pid": GPU_PID, "tid": STREAM,
                 "args": {"name": f"stream {STREAM} "}})
    meta.append({"name": "thread_sort_index", "ph": "M", "ts": BASE_US, "pid": GPU_PID, "tid": STREAM,
                 "args": {"sort_index": STREAM}})
    # Kineto writes activities grouped by kind, not in time order; keep CPU ops before GPU activity.
    events = sorted(tr.events, key=lambda e: (e["pid"] == GPU_PID, e["ts"]))
    tail = [{"ph": "X", "cat": "Trace", "ts": BASE_US, "dur": end - BASE_US, "pid": "Spans",
             "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
            {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces",
             "tid": "Trace PyTorch Profiler", "ts": BASE_US},
            {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": end}]
    return meta + events + tail


def main():
    global AFTER_BUMP, BASE_US
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?")
    parser.add_argument("--steps", type=int, default=3, help="training steps to write (default 3)")
    parser.add_argument("--after-bump", action="store_true", help="the same job after the library upgrade")
    opts = parser.parse_args()
    AFTER_BUMP = opts.after_bump
    stem = "sample_training_step_after_bump" if AFTER_BUMP else "sample_training_step"
    if opts.output is None:
        opts.output = os.path.join(here, stem + ".pt.trace.json.gz")
    if AFTER_BUMP:
        BASE_US += 86400e6  # a day later

    header = {
        "schemaVersion": 1,
        "deviceProperties": [{
            "id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85097971712,
            "computeMajor": 8, "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
            "regsPerBlock": 65536, "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerBlock": 49152,
            "sharedMemPerMultiprocessor": 167936, "numSms": 108, "sharedMemPerBlockOptin": 166912}],
        "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 1},
        "record_shapes": 1,
    }
    lines = ["{"]
    for key, value in header.items():
        lines.append(f'  "{key}": {json.dumps(value)},')
    events = build(opts.steps)
    lines.append('  "traceEvents": [')
    body = ",\n".join(render_event(ev) for ev in events)
    lines.append(body)
    lines.append("  ],")
    lines.append(f'  "traceName": "/tmp/plumb_sample/{stem}.pt.trace.json",')
    lines.append('  "displayTimeUnit": "ms"')
    lines.append("}")
    data = ("\n".join(lines) + "\n").encode()
    with open(opts.output, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            gz.write(data)
    print(f"wrote {opts.output}: {len(events)} events, {len(data)} bytes uncompressed")


if __name__ == "__main__":
    main()
