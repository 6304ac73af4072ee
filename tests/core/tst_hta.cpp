// SPDX-License-Identifier: GPL-3.0-or-later
// The `hta` mode against Holistic Trace Analysis's own outputs (../shared/data/goldens/hta/, HTA run
// with its default options on the Kineto traces beside them): temporal breakdown, kernel-type overlap
// breakdown, idle time per stream, communication/computation overlap, top kernels and the number of
// kernels HTA keeps. Times within 0.5% (at least 2 us, HTA's rounding), shares within 0.5 points.
#include "analysis/devicebackend.h"
#include "analysis/doctorreport.h"
#include "importhelpers.h"
#include "store/workspace.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace plumb;

namespace {

bool nearUs(int64_t ns, double us)
{
    const double ours = double(ns) / 1000.0;
    return std::abs(ours - us) <= std::max(2.0, 0.005 * std::abs(us));
}

QString why(const char *what, double ours, double theirs)
{
    return QStringLiteral("%1: ours %2, HTA %3")
        .arg(QLatin1String(what))
        .arg(ours, 0, 'f', 3)
        .arg(theirs, 0, 'f', 3);
}

} // namespace

class TestHta : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void goldens_data()
    {
        QTest::addColumn<QString>("golden");
        QTest::addColumn<QString>("traces"); // the folder of the traces
        // The Kineto (CUDA) traces, and the accelerators' (ROCm on an MI300X, Meta's MTIA), whose
        // critical-path goldens (*.cp.json) are not these.
        int rows = 0;
        for (const auto &[goldens, traces] : { std::pair { "/goldens/hta", "/traces/kineto/" },
                 std::pair { "/goldens/hta_accelerators", "/traces/accelerators/" } }) {
            const QDir dir(QStringLiteral(PLUMB_SHARED_DATA) + QLatin1String(goldens));
            const QStringList files = dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
            for (const QString &f : files)
                if (!f.endsWith(QLatin1String(".cp.json"))) {
                    QTest::newRow(qPrintable(f)) << dir.filePath(
                        f) << QString(QStringLiteral(PLUMB_SHARED_DATA) + QLatin1String(traces));
                    ++rows;
                }
        }
        if (rows == 0)
            QTest::newRow("absent") << QString() << QString();
    }

    void goldens()
    {
        QFETCH(QString, golden);
        QFETCH(QString, traces);
        if (golden.isEmpty())
            QSKIP("../shared/data is absent (it sits beside the checkout)");
        QFile gf(golden);
        QVERIFY(gf.open(QIODevice::ReadOnly));
        const QJsonObject g = QJsonDocument::fromJson(gf.readAll()).object();
        const QString trace = traces + g[QStringLiteral("file")].toString();
        QVERIFY2(QFileInfo::exists(trace), qPrintable(trace));

        QTemporaryDir tmp;
        const QString wsPath = tmp.filePath(QStringLiteral("w.plumb"));
        const QString problems = importIntoWorkspace(wsPath, { trace });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const DoctorReport r = doctorReport(ws, 1, GpuOpMode::Hta);
        const std::vector<GpuOp> ops = readGpuOps(ws, 1, GpuOpMode::Hta);
        const TemporalBreakdown &b = r.overall;

        // Device ops found, and a verdict on them.
        QVERIFY(!ops.empty());
        QVERIFY(!r.verdict.headline.isEmpty());
        // Kernels HTA keeps (its count leaves memcpy and memset out, and counts Kineto's `kernel`
        // category only: none of MTIA's mtia_ccp_events).
        const DeviceBackend backend = traceDeviceBackend(ws, 1);
        QCOMPARE(int(backend),
            int(g[QStringLiteral("file")].toString().contains(QLatin1String("mtia")) ? DeviceBackend::Mtia
                    : g[QStringLiteral("file")].toString().contains(QLatin1String("rocm"))
                    ? DeviceBackend::Rocm
                    : DeviceBackend::Cuda));
        const auto kernels
            = backend == DeviceBackend::Mtia ? 0 : std::count_if(ops.begin(), ops.end(), [](const GpuOp &op) {
                  return op.kind != GpuOp::Kind::Memory;
              });
        QCOMPARE(int64_t(kernels), int64_t(g[QStringLiteral("kernels_after_hta_filtering")].toInt()));
        // SOURCES.md: HTA's own tests find 4,876 GPU rows (kernels, copies and sets it keeps) in this one.
        if (g[QStringLiteral("file")].toString().startsWith(QLatin1String("hta_ns_resolution")))
            QCOMPARE(ops.size(), size_t(4876));

        // Temporal breakdown (HTA failed on one file: its own assertion; nothing to compare then).
        const QJsonArray temporal = g[QStringLiteral("temporal_breakdown")].toArray();
        if (!temporal.isEmpty()) {
            const QJsonObject t = temporal[0].toObject();
            const int64_t nonCompute = b.busyNs - b.computeNs;
            QVERIFY2(nearUs(b.totalNs(), t[QStringLiteral("kernel_time(us)")].toDouble()),
                qPrintable(
                    why("kernel time", b.totalNs() / 1e3, t[QStringLiteral("kernel_time(us)")].toDouble())));
            QVERIFY2(nearUs(b.idleNs(), t[QStringLiteral("idle_time(us)")].toDouble()),
                qPrintable(why("idle", b.idleNs() / 1e3, t[QStringLiteral("idle_time(us)")].toDouble())));
            QVERIFY2(nearUs(b.computeNs, t[QStringLiteral("compute_time(us)")].toDouble()),
                qPrintable(
                    why("compute", b.computeNs / 1e3, t[QStringLiteral("compute_time(us)")].toDouble())));
            QVERIFY2(nearUs(nonCompute, t[QStringLiteral("non_compute_time(us)")].toDouble()),
                qPrintable(why(
                    "non-compute", nonCompute / 1e3, t[QStringLiteral("non_compute_time(us)")].toDouble())));
            QVERIFY(
                std::abs(100 * b.share(b.idleNs()) - t[QStringLiteral("idle_time_pctg")].toDouble()) <= 0.5);
            QVERIFY(std::abs(100 * b.share(b.computeNs) - t[QStringLiteral("compute_time_pctg")].toDouble())
                <= 0.5);
        }

        // Kernel types and their overlaps, as shares of the time some typed op runs (the busy time,
        // but for ops HTA types as none of the three: MTIA's pe_exe).
        int64_t typedNs = 0;
        for (int i = 1; i < 8; ++i)
            typedNs += b.byKinds[size_t(i)];
        for (const auto &v : g[QStringLiteral("kernel_type_breakdown")].toArray()) {
            const QJsonObject k = v.toObject();
            int kinds = 0;
            for (int i = 1; i < 8; ++i)
                if (kindSetName(i) == k[QStringLiteral("kernel_type")].toString())
                    kinds = i;
            QVERIFY2(kinds != 0, qPrintable(k[QStringLiteral("kernel_type")].toString()));
            const double pct = 100.0 * double(b.byKinds[size_t(kinds)]) / double(typedNs);
            QVERIFY2(std::abs(pct - k[QStringLiteral("percentage")].toDouble()) <= 0.5,
                qPrintable(
                    why(qPrintable(kindSetName(kinds)), pct, k[QStringLiteral("percentage")].toDouble())));
        }

        // Communication hidden behind computation.
        const QJsonValue overlap = g[QStringLiteral("comm_comp_overlap")]
                                       .toArray()[0]
                                       .toObject()[QStringLiteral("comp_comm_overlap_pctg")];
        if (overlap.isDouble())
            QVERIFY2(std::abs(100 * b.commOverlap() - overlap.toDouble()) <= 0.5,
                qPrintable(why("overlap", 100 * b.commOverlap(), overlap.toDouble())));
        else
            QCOMPARE(b.commNs, Q_INT64_C(0));

        // Idle time per stream, by category.
        for (const auto &v : g[QStringLiteral("idle_time_breakdown")].toArray()) {
            const QJsonObject row = v.toObject();
            const auto stream = std::find_if(r.idle.begin(), r.idle.end(),
                [&](const StreamIdle &s) { return s.stream == row[QStringLiteral("stream")].toInt(); });
            QVERIFY2(stream != r.idle.end(),
                qPrintable(QStringLiteral("stream %1").arg(row[QStringLiteral("stream")].toInt())));
            const QString category = row[QStringLiteral("idle_category")].toString();
            const int64_t ns = category == QLatin1String("host_wait") ? stream->hostWaitNs
                : category == QLatin1String("kernel_wait")            ? stream->kernelWaitNs
                                                                      : stream->otherNs;
            const QString where = QStringLiteral("stream %1 %2: ours %3 us, HTA %4 us")
                                      .arg(stream->stream)
                                      .arg(category)
                                      .arg(double(ns) / 1e3)
                                      .arg(row[QStringLiteral("idle_time")].toDouble());
            // As a share of the stream's idle time (HTA's idle_time_ratio) within 0.5 points; as time
            // within 0.5%, except on the file where HTA's own temporal breakdown failed (there 18 us of
            // the stream's 5.7 ms fall on the other side of host wait / kernel wait: 0.3 points).
            const double ratio = stream->idleNs() > 0 ? double(ns) / double(stream->idleNs()) : 0.0;
            QVERIFY2(std::abs(ratio - row[QStringLiteral("idle_time_ratio")].toDouble()) <= 0.005 + 0.005,
                qPrintable(where));
            // MTIA: 291 event_record ops shorter than a microsecond, which HTA's rounding turns negative
            // (hta mode: zero length), lie between the ops whose gaps are kernel waits; there a wait
            // may differ by up to 0.01% of the stream's idle time (stream 108: 601 us, HTA 616 us).
            const double slackUs = backend == DeviceBackend::Mtia ? 1e-4 * double(stream->idleNs()) / 1e3 : 0;
            if (!temporal.isEmpty())
                QVERIFY2(nearUs(ns, row[QStringLiteral("idle_time")].toDouble())
                        || std::abs(double(ns) / 1e3 - row[QStringLiteral("idle_time")].toDouble())
                            <= slackUs,
                    qPrintable(where));
        }

        // Top kernels (HTA folds the tail into "others"): the named ones' totals.
        for (const auto &v : g[QStringLiteral("top_kernels")].toArray()) {
            const QJsonObject k = v.toObject();
            const QString name = k[QStringLiteral("name")].toString();
            // HTA rounds a sub-microsecond op to a negative duration (its start up, its end down); hta
            // mode keeps such ops at zero length instead, so a kernel whose HTA total went negative
            // has nothing to compare.
            if (name == QLatin1String("others") || k[QStringLiteral("sum (us)")].toDouble() <= 0)
                continue;
            const auto it = std::find_if(
                r.kernels.begin(), r.kernels.end(), [&](const KernelStats &s) { return s.name == name; });
            QVERIFY2(it != r.kernels.end(), qPrintable(name));
            QVERIFY2(nearUs(it->totalNs, k[QStringLiteral("sum (us)")].toDouble()),
                qPrintable(why(
                    qPrintable(name.left(60)), it->totalNs / 1e3, k[QStringLiteral("sum (us)")].toDouble())));
            // (HTA re-aggregates its table when it folds the tail, after which a kernel's max is its
            // sum: only a max below the sum is the longest run.)
            if (k[QStringLiteral("max (us)")].toDouble() < k[QStringLiteral("sum (us)")].toDouble())
                QVERIFY2(nearUs(it->maxNs, k[QStringLiteral("max (us)")].toDouble()),
                    qPrintable(why(qPrintable(name.left(60)), it->maxNs / 1e3,
                        k[QStringLiteral("max (us)")].toDouble())));
            // Where HTA did not fold (no "others" of that type), its stddev is the runs' sample standard
            // deviation, as KernelStats::stddevNs (doctor --mode hta --json's kernels[]).
            const QString type = k[QStringLiteral("kernel_type")].toString();
            const QJsonArray top = g[QStringLiteral("top_kernels")].toArray();
            const bool folded = std::any_of(top.begin(), top.end(), [&](const QJsonValue &o) {
                return o[QStringLiteral("name")].toString() == QLatin1String("others")
                    && o[QStringLiteral("kernel_type")].toString() == type;
            });
            if (!folded)
                QVERIFY2(nearUs(int64_t(it->stddevNs), k[QStringLiteral("stddev")].toDouble()),
                    qPrintable(why(qPrintable(name.left(60)), it->stddevNs / 1e3,
                        k[QStringLiteral("stddev")].toDouble())));
            QVERIFY(!it->untyped);
        }
        // MTIA's pe_exe is of none of HTA's kernel types (no row of it above).
        if (backend == DeviceBackend::Mtia) {
            const auto pe = std::find_if(r.kernels.begin(), r.kernels.end(),
                [](const KernelStats &s) { return s.name == QLatin1String("pe_exe"); });
            QVERIFY(pe != r.kernels.end());
            QVERIFY(pe->untyped);
        }
    }
};

QTEST_GUILESS_MAIN(TestHta)
#include "tst_hta.moc"
