// SPDX-License-Identifier: GPL-3.0-or-later
// NsysNvtx on its own: NVTX ranges and marks onto their thread's track, named by their text or textId,
// their domain and category by the names the export's naming records give (startNames()), their
// payload in the args; ranges the capture cut; and the ranges projected onto the GPU streams their CUDA
// calls launched work on (project()).

#include "ingest/rangeprojection.h"
#include "nsys/nsysnvtx.h"
#include "nsysunitfixture.h"

#include <QtTest>

using namespace plumb;
using namespace plumb::nsys;
using namespace plumb::nsys::test;

namespace {

constexpr int64_t kGt = globalTid(100, 101);

std::string nvtxExport()
{
    const std::string gt = std::to_string(kGt);
    auto row = [&](const char *start, const char *end, int type, const char *text, int domain, int category,
                   const char *textId, const char *i64, const char *dbl, const char *json) {
        return std::string("(") + start + "," + end + "," + std::to_string(type) + "," + text + "," + gt + ","
            + std::to_string(domain) + "," + std::to_string(category) + "," + textId + "," + i64 + "," + dbl
            + "," + json + "),";
    };
    std::string rows;
    // Naming records: domain 5 is "NCCL", its category 2 "comm" (the category named by textId).
    rows += row("1", "NULL", 75, "'NCCL'", 5, 0, "NULL", "NULL", "NULL", "NULL");
    rows += row("2", "NULL", 33, "NULL", 5, 2, "11", "NULL", "NULL", "NULL");
    rows += row("100", "200", 59, "'step'", 0, 0, "NULL", "NULL", "NULL", "NULL");
    rows += row("120", "150", 59, "NULL", 5, 2, "10", "42", "NULL", "NULL");
    rows += row("160", "NULL", 34, "'checkpoint'", 0, 0, "NULL", "NULL", "0.5", "NULL");
    // A mark is an instant even where its row has an end.
    rows += row("170", "180", 34, "'tick'", 0, 0, "NULL", "NULL", "NULL", "NULL");
    rows += row("300", "NULL", 60, "NULL", 9, 3, "NULL", "NULL", "NULL", "NULL");
    rows += row("400", "410", 59, "'json'", 0, 0, "NULL", "NULL", "NULL", "'{\"a\":1}'");
    rows.back() = ';';
    return std::string(kBaseTables)
        + "INSERT INTO StringIds VALUES (10, 'forward'), (11, 'comm');"
          "CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, text "
          "TEXT, "
          "globalTid INTEGER, domainId INTEGER, category INTEGER, textId INTEGER, int64Value INTEGER, "
          "doubleValue REAL, jsonText TEXT);"
          "INSERT INTO NVTX_EVENTS VALUES "
        + rows;
}

} // namespace

class TestNsysNvtx : public QObject {
    Q_OBJECT
private slots:
    void rangesAndMarks();
    void projectsOntoGpu();
};

void TestNsysNvtx::rangesAndMarks()
{
    const MiniExport x(nvtxExport());
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    NsysTracks tracks(schema, strings, s.sink());
    NsysArgs args;
    RangeProjection projection;
    NsysNvtx nvtx(schema, strings, tracks, args, s.sink(), s.diag(), projection);
    auto names = nvtx.startNames(x.path());
    QVERIFY(names.valid());
    nvtx.setNames(names.get());
    forEachRow(x.path(), "NVTX_EVENTS", args, [&](NsysCursor &c, SliceFields &f) { nvtx.handle(c, f); });
    nvtx.report();
    s.finish();
    const QStringList expected {
        QStringLiteral("thread||100|100|step|nvtx||"),
        QStringLiteral(
            "thread||120|30|forward|nvtx||{\"domain\":\"NCCL\",\"category\":\"comm\",\"payload\":42}"),
        QStringLiteral("thread||160|0|checkpoint|nvtx||{\"payload\":0.5}"),
        QStringLiteral("thread||170|0|tick|nvtx||"),
        QStringLiteral("thread||300|0|[unnamed NVTX range]|nvtx||{\"domain\":9,\"category\":3}"),
        QStringLiteral("thread||400|10|json|nvtx||{\"payload\":\"{\\\"a\\\":1}\"}"),
    };
    QCOMPARE(s.rows(kSlicesSql), expected);
    QCOMPARE(s.diag().countOf(QStringLiteral("nvtx-metadata")), int64_t(2)); // the two naming records
    QCOMPARE(s.diag().countOf(QStringLiteral("unterminated-nvtx-range")), int64_t(1));
}

void TestNsysNvtx::projectsOntoGpu()
{
    const MiniExport x(nvtxExport());
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    NsysTracks tracks(schema, strings, s.sink());
    NsysArgs args;
    RangeProjection projection;
    NsysNvtx nvtx(schema, strings, tracks, args, s.sink(), s.diag(), projection);
    nvtx.setNames(nvtx.startNames(x.path()).get());
    forEachRow(x.path(), "NVTX_EVENTS", args, [&](NsysCursor &c, SliceFields &f) { nvtx.handle(c, f); });
    // A CUDA call inside "step" and "forward" launches work on stream 7; one after every range launches
    // more, which no range encloses.
    projection.addLaunch(1, kGt, 130);
    projection.addLaunch(2, kGt, 250);
    const int64_t stream = tracks.streamTrack(0, 7);
    projection.addOp(1, stream, 500, 600);
    projection.addOp(2, stream, 700, 800);
    nvtx.project();
    s.finish();
    const QStringList expected {
        QStringLiteral("gpu_annotation||500|100|step|gpu_user_annotation||{\"GPU ops\":1}"),
        QStringLiteral("gpu_annotation||500|100|forward|gpu_user_annotation||{\"GPU ops\":1}"),
    };
    QCOMPARE(s.rows(kSlicesSql).filter(QStringLiteral("|gpu_user_annotation|")), expected);
}

QTEST_GUILESS_MAIN(TestNsysNvtx)
#include "tst_nsysnvtx.moc"
