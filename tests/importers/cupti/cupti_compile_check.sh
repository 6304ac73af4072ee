#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The CUPTI collector compiles against every CUDA toolkit on this machine (/usr/local/cuda-*, and
# CUDA_TOOLKITS="DIR..." for more), and against the record layouts of the CUPTI versions it names but
# this machine may lack: each toolkit's headers again with CUPTI_API_VERSION set to 24 (CUDA 12.6:
# Memcpy5, Synchronization, Device4, Context) and 26 (CUDA 12.8: Memcpy6, Synchronization2, Device5,
# Context3), whose older records the newer headers still define (cupti_activity_deprecated.h).
# Exits 77 (skipped) where no toolkit with CUPTI is found.
# usage: cupti_compile_check.sh CXX SOURCE_DIR
set -eu
cxx=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
toolkits=""
for t in /usr/local/cuda-* ${CUDA_TOOLKITS:-}; do
    [ -f "$t/include/cupti.h" ] && toolkits="$toolkits $t"
done
[ -n "$toolkits" ] || { echo "no CUDA toolkit with CUPTI here: skipped"; exit 77; }

compile() { # LABEL INCLUDE_DIR
    if ! "$cxx" -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I"$2" -I"$src/importers" -I"$src/core" \
        "$src/importers/cupti/collector.cpp" > "$dir/out" 2>&1; then
        cat "$dir/out"
        echo "FAIL: the collector does not compile against $1"
        exit 1
    fi
    echo "compiles against $1"
}

checked=0
for t in $toolkits; do
    version=$(sed -n 's/^#define CUPTI_API_VERSION \([0-9]*\).*/\1/p' "$t/include/cupti_version.h")
    compile "$t (CUPTI_API_VERSION $version)" "$t/include"
    checked=$((checked + 1))
    for older in 24 26; do
        [ "$version" -gt "$older" ] || continue
        shim=$dir/api$older-$(basename "$t")
        mkdir "$shim"
        for f in "$t"/include/*; do ln -s "$f" "$shim/$(basename "$f")"; done
        rm "$shim/cupti_version.h"
        sed "s/^#define CUPTI_API_VERSION [0-9]*/#define CUPTI_API_VERSION $older/" "$t/include/cupti_version.h" \
            > "$shim/cupti_version.h"
        compile "$t's headers as CUPTI_API_VERSION $older" "$shim"
        checked=$((checked + 1))
    done
done
echo "ok: $checked compiles"
