// SPDX-License-Identifier: GPL-3.0-or-later
// util/allocatortuning.h: after tuneAllocator(), glibc serves even a block above its largest mmap
// threshold from the heap (no fresh mapping to fault in and unmap on free), which the test reads from
// mallinfo2()'s count of mmapped blocks; adviseHugePages() leaves memory as it was for any range.
#include "util/allocatortuning.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace plumb;

namespace {

#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33) && !defined(PLUMB_SANITIZED_MALLOC)
#define PLUMB_HAS_MALLINFO2 1
// How many more blocks glibc has mmapped while a 64 MiB block (above glibc's largest mmap threshold,
// 32 MiB) is allocated and touched.
size_t mappedBlocksFor64MiB()
{
    const size_t before = mallinfo2().hblks;
    constexpr size_t kSize = size_t(64) << 20;
    auto *volatile p = static_cast<char *>(std::malloc(kSize));
    if (!p) {
        return size_t(-1);
    }
    p[0] = 1;
    p[kSize - 1] = 1;
    const size_t during = mallinfo2().hblks;
    std::free(p);
    return during - before;
}
#endif

} // namespace

class TestAllocatorTuning : public QObject {
    Q_OBJECT

private slots:
    // One test: the untuned measurement must come first (tuning cannot be undone).
    void largeBlocksComeFromTheHeap()
    {
#if defined(PLUMB_HAS_MALLINFO2)
        QCOMPARE(mappedBlocksFor64MiB(), size_t(1)); // glibc's default: a mapping of its own
        tuneAllocator();
        QCOMPARE(mappedBlocksFor64MiB(), size_t(0));
        tuneAllocator(); // idempotent
        QCOMPARE(mappedBlocksFor64MiB(), size_t(0));
#else
        tuneAllocator();
        QSKIP("not glibc's allocator: nothing to measure");
#endif
    }

    // After tuneAllocator() (the test before), the heap has room advised for transparent huge pages:
    // 32 MiB allocated now lie in a part of the heap whose VmFlags (/proc/self/smaps) say "hg".
    void heapAdvisedForHugePages()
    {
#if defined(PLUMB_SANITIZED_MALLOC) || !defined(__GLIBC__)
        QSKIP("not glibc's allocator: nothing to look at");
#else
        if (!QFile::exists(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled")))
            QSKIP("this kernel has no transparent huge pages");
        std::vector<char> grown(size_t(32) << 20, 'x');
        QFile smaps(QStringLiteral("/proc/self/smaps"));
        QVERIFY(smaps.open(QIODevice::ReadOnly));
        const QRegularExpression mapping(QStringLiteral("^([0-9a-f]+)-([0-9a-f]+) "));
        // Its middle: its first bytes may lie before the advised range, which starts at a page boundary.
        const auto at = reinterpret_cast<quintptr>(grown.data() + grown.size() / 2);
        bool inside = false, advised = false;
        for (const QByteArray &line : smaps.readAll().split('\n')) {
            const QRegularExpressionMatch m = mapping.match(QString::fromLatin1(line));
            if (m.hasMatch()) // a mapping's first line: is the vector's middle in it?
                inside = m.captured(1).toULongLong(nullptr, 16) <= at
                    && at < m.captured(2).toULongLong(nullptr, 16);
            else if (inside && line.startsWith("VmFlags:"))
                advised = line.split(' ').contains("hg");
        }
        QVERIFY2(advised, "the heap where the vector lies is not advised for huge pages");
        QCOMPARE(grown.back(), 'x');
#endif
    }

    void adviseHugePagesKeepsTheData_data()
    {
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<qint64>("offset");
        QTest::newRow("small: no-op") << qint64(4096) << qint64(0);
        QTest::newRow("just under two huge pages") << qint64(4 << 20) - 1 << qint64(0);
        QTest::newRow("8 MiB") << qint64(8 << 20) << qint64(0);
        QTest::newRow("8 MiB, unaligned start") << qint64(8 << 20) << qint64(123);
    }
    void adviseHugePagesKeepsTheData()
    {
        QFETCH(qint64, bytes);
        QFETCH(qint64, offset);
        std::vector<unsigned char> buffer(size_t(bytes + offset + 64));
        for (size_t i = 0; i < buffer.size(); ++i) {
            buffer[i] = static_cast<unsigned char>(i * 31 + 7);
        }
        const std::vector<unsigned char> copy = buffer;
        adviseHugePages(buffer.data() + offset, size_t(bytes));
        QVERIFY(std::memcmp(buffer.data(), copy.data(), buffer.size()) == 0);
        adviseHugePages(nullptr, 0);
        std::vector<double> v;
        v.reserve(1 << 20);
        adviseHugePages(v); // the vector overload: its reserved capacity
        v.assign(1 << 20, 2.5);
        QCOMPARE(v.back(), 2.5);
    }
};

QTEST_GUILESS_MAIN(TestAllocatorTuning)
#include "tst_allocatortuning.moc"
