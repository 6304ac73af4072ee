// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>

// Defined where a sanitizer's allocator replaces glibc's (ASan, TSan): reserveHugePageHeap() is then a no-op.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PLUMB_SANITIZED_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PLUMB_SANITIZED_MALLOC 1
#endif
#endif

namespace plumb {

// Called first thing in main() (the app, and the benchmarks that time what the app does): keeps the
// memory of freed million-element vectors in the process for the next analysis instead of handing
// it back to the kernel and faulting it in again. glibc serves an allocation above its mmap
// threshold (128 KiB until it adapts) with fresh pages and unmaps them on free; on the virtual
// machines these figures are measured on, a page fault costs several microseconds, and the doctor
// over a million kernels spent about 40% of its time faulting in pages it had just freed. The
// threshold is raised to glibc's largest (32 MiB on 64-bit), larger blocks are not mapped either (the
// vectors of a 5M-kernel trace are 80-320 MB), the heap is trimmed only above 512 MiB free, and every
// thread shares the one heap (a thread's own arena keeps what it freed, resident). Then the heap is
// grown and advised for transparent huge pages (reserveHugePageHeap()). A no-op on other C libraries.
void tuneAllocator();

// Extends the heap by 256 MiB of address space, none of it touched (no memory used), advises it for
// transparent huge pages and frees it to the heap, which keeps it (below the trim threshold). Where the
// kernel gives huge pages only to memory that asks for them (THP "madvise", Debian's default), what
// the process then allocates there is faulted in 2 MiB at a time instead of 4 KiB: each fault costs
// several microseconds on the virtual machines these figures are measured on, about a fifth of the
// import of a 216k-event trace (0.29 s against 0.36 s). Done again after releaseFreeMemory(), which
// gives that space back. What grows the heap past it gets the kernel's 4 KiB pages. A no-op under a
// sanitizer (its allocator replaces glibc's) and on other systems.
void reserveHugePageHeap();

// Hands the heap's free memory back to the kernel (glibc's malloc_trim), between two phases of which
// the first freed much that the second will not reuse: an import's parse buffers before the summary
// pass, whose vectors are of other sizes and threads; then reserves huge pages again. A no-op on other
// C libraries.
void releaseFreeMemory();

// Asks the kernel to back [p, p + bytes) with transparent huge pages where it allows them (Linux,
// THP "madvise" mode, as Debian's kernels ship): for a freshly reserved, not yet touched vector of
// millions of elements, so that filling it takes one fault per 2 MiB instead of one per 4 KiB. Only
// whole pages inside the range are advised; small ranges and other systems: a no-op.
void adviseHugePages(const void *p, size_t bytes);

// adviseHugePages() over a vector's reserved capacity.
template <typename Vector> void adviseHugePages(const Vector &v)
{
    adviseHugePages(v.data(), v.capacity() * sizeof(typename Vector::value_type));
}

} // namespace plumb
