// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/allocatortuning.h"

#include <cstdlib> // defines __GLIBC__ (through <features.h>) when the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include <cstdint>

namespace plumb {

void releaseFreeMemory()
{
#if defined(__GLIBC__)
    malloc_trim(0);
    reserveHugePageHeap();
#endif
}

void reserveHugePageHeap()
{
#if defined(__GLIBC__) && defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(PLUMB_SANITIZED_MALLOC)
    // Below M_TRIM_THRESHOLD (512 MiB), so that free() keeps it, and from the top of the heap, since no
    // block is mapped on its own (M_MMAP_MAX 0).
    constexpr size_t kReserve = size_t(256) << 20;
    void *block = std::malloc(kReserve);
    if (!block)
        return;
    const auto from = reinterpret_cast<uintptr_t>(block);
    const auto top = reinterpret_cast<uintptr_t>(sbrk(0)); // the heap's end, past the block
    adviseHugePages(block, top > from ? size_t(top - from) : kReserve);
    std::free(block);
#endif
}

void tuneAllocator()
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 512 * 1024 * 1024);
    // Not even above that: the vectors of a 5M-kernel trace (80-320 MB each) were mapped fresh and
    // unmapped on free every time, and the doctor spent a quarter of its time in page faults.
    mallopt(M_MMAP_MAX, 0);
    // One heap for every thread. Each thread's own arena kept what it had freed: after an import of a
    // 2 GB trace the summary pass's three threads held 335 MB resident for 151 MB in use (215-230 MB
    // with one arena). Import and doctor ran as fast with one (1M-event import: 2.17-2.27 s against
    // 2.24-2.41 s, measured in pairs): their threads allocate in large blocks, not per event.
    mallopt(M_ARENA_MAX, 1);
    reserveHugePageHeap();
#endif
}

void adviseHugePages(const void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr uintptr_t kHuge = 2 * 1024 * 1024;
    if (bytes < 2 * kHuge)
        return;
    constexpr uintptr_t kPage = 4096;
    const uintptr_t addr = reinterpret_cast<uintptr_t>(p);
    const uintptr_t start = (addr + kPage - 1) & ~(kPage - 1);
    const uintptr_t end = (addr + bytes) & ~(kPage - 1);
    if (end > start) // the page-aligned part, reached from p itself (no integer-to-pointer cast)
        madvise(const_cast<char *>(static_cast<const char *>(p)) + (start - addr), end - start,
            MADV_HUGEPAGE); // advice: failure is harmless
#else
    (void)p;
    (void)bytes;
#endif
}

} // namespace plumb
