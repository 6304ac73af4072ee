#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Smoke test of the CUPTI collector (libplumb_cupti.so) on a machine with an NVIDIA GPU: builds a
# tiny CUDA program (vector add, cudaMemcpy both ways, cudaMemset, cudaDeviceSynchronize, an NVTX
# range when the nvtx3 headers are there), runs it with CUDA_INJECTION64_PATH pointing at the
# collector, imports the trace with `plumb import` into a temporary workspace and checks
# `plumb ls --json` and the trace itself.
#
# Usage: tests/gpu/cupti_smoke.sh [BUILD_DIR]      (default: build-cupti in this checkout)
# Environment: PLUMB (the plumb binary; default BUILD_DIR/app/plumb, then any build*/app/plumb, then
#              PATH), NVCC, CUDA_HOME (default /usr/local/cuda), KEEP=1 keeps the temp folder.
# Exit status: 0 passed, 1 failed, 77 skipped (no GPU; ctest's SKIP_RETURN_CODE convention).
# Everything that needs no GPU (the library and its export, compiling the program, finding plumb)
# is checked before the GPU check, so a machine without one still tests those.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build-cupti}" 2>/dev/null && pwd) || { echo "cupti_smoke: FAILED: no build folder ${1:-$root/build-cupti}" >&2; exit 1; }
lib=$build/importers/cupti/libplumb_cupti.so
cuda_home=${CUDA_HOME:-/usr/local/cuda}

say() { echo "cupti_smoke: $*"; }
fail() { echo "cupti_smoke: FAILED: $*" >&2; exit 1; }
skip() { echo "cupti_smoke: SKIPPED: $*"; exit 77; }

# 1. The collector: built, and exporting the entry point the CUDA driver looks for.
[ -f "$lib" ] || fail "$lib does not exist: configure with the CUDA toolkit (CUPTI) found and build"
nm -D --defined-only "$lib" | grep -qw InitializeInjection || fail "$lib does not export InitializeInjection"
say "collector $lib exports InitializeInjection"

# 2. plumb, for the import.
plumb=${PLUMB:-}
if [ -z "$plumb" ]; then
    for c in "$build/app/plumb" "$root"/build*/app/plumb; do
        if [ -x "$c" ]; then plumb=$c; break; fi
    done
fi
[ -n "$plumb" ] || plumb=$(command -v plumb || true)
[ -n "$plumb" ] && [ -x "$plumb" ] || fail "no plumb binary: build app/ (PLUMB_WITH_GUI=ON) or set PLUMB=/path/to/plumb"
say "plumb: $plumb"

# 3. The CUDA program.
nvcc=${NVCC:-$(command -v nvcc || echo "$cuda_home/bin/nvcc")}
[ -x "$nvcc" ] || fail "no nvcc (set NVCC or CUDA_HOME)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cupti_smoke.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then say "keeping $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi

nvtx_flags=()
if [ -f "$cuda_home/include/nvtx3/nvToolsExt.h" ]; then
    nvtx_flags=(-DHAVE_NVTX -ldl)
fi
cat > "$tmp/vector_add.cu" <<'CU'
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#ifdef HAVE_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t e = (call);                                                              \
        if (e != cudaSuccess) {                                                              \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e)); \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

__global__ void vectorAdd(const float *a, const float *b, float *c, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    CHECK(cudaFree(0)); // initialise CUDA (and so the collector) before the first NVTX call
#ifdef HAVE_NVTX
    nvtxRangePushA("plumb smoke");
#endif
    float *ha = static_cast<float *>(std::malloc(bytes)), *hb = static_cast<float *>(std::malloc(bytes)),
          *hc = static_cast<float *>(std::malloc(bytes));
    for (int i = 0; i < n; ++i) {
        ha[i] = float(i);
        hb[i] = 2.0f * float(i);
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dc, 0, bytes));
    vectorAdd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));
#ifdef HAVE_NVTX
    nvtxRangePop();
#endif
    for (int i = 0; i < n; ++i) {
        if (hc[i] != 3.0f * float(i)) {
            std::fprintf(stderr, "wrong result at %d\n", i);
            return 1;
        }
    }
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    std::free(ha);
    std::free(hb);
    std::free(hc);
    std::printf("vector_add: ok\n");
    return 0;
}
CU
"$nvcc" -O2 -o "$tmp/vector_add" "$tmp/vector_add.cu" "${nvtx_flags[@]}" || fail "nvcc could not build the test program"
say "built the test program with $nvcc${nvtx_flags:+ (with NVTX)}"

# 4. Only now is a GPU needed.
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    skip "no GPU: nvidia-smi finds none (everything up to running on one was checked)"
fi
nvidia-smi -L | sed 's/^/cupti_smoke: /'

trace=$tmp/run.pt.trace.json
(cd "$tmp" && CUDA_INJECTION64_PATH=$lib PLUMB_CUPTI_OUTPUT=$trace ./vector_add) || fail "the program failed under the collector"
[ -s "$trace" ] || fail "no trace at $trace: the collector did not write (was InitializeInjection called?)"
say "trace: $(wc -c < "$trace") bytes"

count() { { grep -o -- "$1" "$trace" || true; } | wc -l; }
kernels=$(count '"cat":"kernel"')
memcpys=$(count '"cat":"gpu_memcpy"')
memsets=$(count '"cat":"gpu_memset"')
runtime=$(count '"cat":"cuda_runtime"')
flows=$(count '"ph":"f"')
syncs=$(count '"cat":"cuda_sync"')
nvtx=$(count '"cat":"user_annotation"')
say "in the trace: $kernels kernels, $memcpys memcpy, $memsets memset, $runtime runtime calls, $flows launch flows, $syncs syncs, $nvtx NVTX ranges"
grep -o '"plumbCupti":{[^}]*}' "$trace" | sed 's/^/cupti_smoke: /'
[ "$kernels" -ge 1 ] || fail "no kernel was recorded"
[ "$memcpys" -ge 3 ] || fail "expected 3 memcpy records, found $memcpys"
[ "$memsets" -ge 1 ] || fail "no memset was recorded"
[ "$runtime" -ge 1 ] || fail "no runtime API call was recorded"
[ "$flows" -ge 5 ] || fail "expected a launch flow for each of the 5 GPU ops, found $flows"
[ "$nvtx" -ge 1 ] || say "warning: no NVTX range recorded (NVTX_INJECTION64_PATH routing)"
[ "$syncs" -ge 1 ] || say "warning: no synchronisation recorded"

ws=$tmp/smoke.plumb
"$plumb" import "$trace" --workspace "$ws" || fail "plumb import failed"
ls_json=$("$plumb" ls --workspace "$ws" --json) || fail "plumb ls failed"
echo "$ls_json" > "$tmp/ls.json"
# Sums a numeric field over every trace in the ls output.
field_sum() { { grep -o "\"$1\": *[0-9]*" "$tmp/ls.json" || true; } | awk -F: '{ s += $2 } END { print s + 0 }'; }
imported=$(field_sum kernels)
gpu_ops=$(field_sum gpu_ops)
say "plumb ls: $imported kernels, $gpu_ops GPU ops"
[ "$imported" -ge 1 ] || fail "plumb ls --json shows no kernel: $ls_json"
[ "$gpu_ops" -ge 5 ] || fail "plumb ls --json shows $gpu_ops GPU ops, expected 5"
say "PASSED"
