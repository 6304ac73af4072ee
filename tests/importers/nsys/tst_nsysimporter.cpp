// SPDX-License-Identifier: GPL-3.0-or-later
// Golden tests for the Nsight Systems SQLite export importer: an export in, SQL over the imported
// workspace, the expected CSV beside the fixture. The fixtures come from data/gen_nsys_fixtures.py;
// the real export (../shared/data/traces/nsys) is checked against pipit's reading of the same file.
// Set PLUMB_UPDATE_GOLDENS=1 to rewrite the CSVs, then review the diff by eye.

#include "analysis/gpuops.h"
#include "builtinimporters.h"
#include "goldens.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "ingest/inputfile.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "timeline/slicesummary.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinequery.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <tuple>

using namespace plumb;

namespace {

const char *kSlicesSql
    = "SELECT p.label AS pid, k.label AS tid, k.kind, k.name AS track, k.stream, s.ts, s.dur, s.depth, "
      "n.str AS name, c.str AS cat, s.corr, a.json AS args "
      "FROM slice s JOIN track k ON k.id = s.track_id LEFT JOIN process p ON p.id = k.process_id "
      "JOIN string n ON n.id = s.name_id LEFT JOIN string c ON c.id = s.cat_id LEFT JOIN args a ON a.id = "
      "s.args_id "
      "ORDER BY k.id, s.ts, s.id";
const char *kOtherSql
    = "SELECT 'diagnostic' AS what, d.code AS a, d.count AS b, d.severity AS c, d.location AS d, NULL AS e "
      "FROM diagnostic d "
      "UNION ALL SELECT 'trace', t.name, t.event_count, t.slice_count, t.kernel_count, t.gpu_op_count FROM "
      "trace t "
      "UNION ALL SELECT 'trace-info', t.base_time_ns, t.start_ns, t.end_ns, t.metadata, NULL FROM trace t "
      "UNION ALL SELECT 'process', p.label, p.pid, p.name, p.labels, p.kind || ':' || "
      "coalesce(p.device_index, '') "
      "FROM process p "
      "UNION ALL SELECT 'device', d.device_index, d.name, d.properties, NULL, NULL FROM device d "
      "UNION ALL SELECT 'source', s.format, s.event_count, s.status, NULL, NULL FROM source s "
      "ORDER BY 1, 2, 3, 4, 5";

QString fixture(const QString &name)
{
    return QStringLiteral(PLUMB_TEST_DATA "/") + name;
}

QString realExport()
{
    return QStringLiteral(PLUMB_SHARED_DATA "/traces/nsys/cloverleaf_nsys2024.5.sqlite");
}

// The messages of a workspace's diagnostics, by code.
std::map<QString, QString> diagnosticMessages(SqliteDb &db)
{
    std::map<QString, QString> out;
    SqliteStmt st(db, "SELECT code, message FROM diagnostic");
    while (st.step())
        out[st.columnText(0)] = st.columnText(1);
    return out;
}

// Slices of category `cat` whose args JSON has a backtrace beginning with the frame `leaf` (any
// backtrace when empty).
int64_t backtraced(SqliteDb &db, std::string_view cat, std::string_view leaf = {})
{
    SqliteStmt st(db,
        "SELECT count(*) FROM slice s JOIN string c ON c.id = s.cat_id JOIN args a ON a.id = s.args_id "
        "WHERE c.str = ? AND a.json LIKE ?");
    st.bind(1, cat).bind(
        2, "%\"backtrace\":[" + (leaf.empty() ? std::string() : "\"" + std::string(leaf) + "\",") + "%");
    return st.step() ? st.columnInt(0) : -1;
}

QByteArray sha1Of(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha1);
    h.addData(&f);
    return h.result();
}

// pipit's CSVs: one Enter and one Leave row per event. Returns (name, stream or thread, enter ns,
// leave ns, type, bytes) per event, in Enter order.
struct PipitEvent {
    QString name;
    QString where;
    qint64 enter = 0;
    qint64 leave = 0;
    QString type;
    QString bytes;
};

std::vector<PipitEvent> readPipit(const QString &path, const QString &whereColumn)
{
    std::vector<PipitEvent> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return out;
    const QStringList header = QString::fromUtf8(f.readLine()).trimmed().split(QLatin1Char(','));
    const auto col = [&](const char *n) { return header.indexOf(QString::fromLatin1(n)); };
    const int name = col("Name"), where = header.indexOf(whereColumn), type = col("type"),
              bytes = col("bytes"), evType = col("Event Type"), ts = col("Timestamp (ns)"),
              match = col("_matching_timestamp");
    while (!f.atEnd()) {
        // No field of these files holds a comma (kernel names are pipit's short names).
        const QStringList cells = QString::fromUtf8(f.readLine()).trimmed().split(QLatin1Char(','));
        if (cells.size() < header.size() || cells[evType] != QLatin1String("Enter"))
            continue;
        PipitEvent e;
        e.name = cells[name];
        e.where = cells[where];
        e.enter = cells[ts].toLongLong();
        e.leave = cells[match].toLongLong();
        e.type = type >= 0 ? cells[type] : QString();
        e.bytes = bytes >= 0 ? cells[bytes] : QString();
        out.push_back(e);
    }
    return out;
}

} // namespace

class TestNsysImporter : public QObject {
    Q_OBJECT

private:
    ImporterRegistry m_registry;
    QTemporaryDir m_tmp;
    int m_wsCounter = 0;

    QString freshWorkspace() { return m_tmp.filePath(QStringLiteral("ws%1.plumb").arg(++m_wsCounter)); }

    FileImportResult importOne(const QString &ws, const QString &path)
    {
        ImportRunner runner(m_registry, ws);
        const auto results = runner.run({ path });
        if (results.size() != 1)
            qFatal("expected one result");
        return results.front();
    }

private slots:
    void initTestCase()
    {
        registerBuiltinImporters(m_registry);
        QVERIFY(m_tmp.isValid());
    }

    void sniff_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("format");
        QTest::newRow("2024") << fixture(QStringLiteral("layout2024.sqlite")) << "nsys";
        QTest::newRow("2022") << fixture(QStringLiteral("layout2022.sqlite")) << "nsys";
        QTest::newRow("empty-tables") << fixture(QStringLiteral("empty_tables.sqlite")) << "nsys";
        // Any SQLite file comes to this importer when no other claims it; read() then says what it is.
        QTest::newRow("not-nsight") << fixture(QStringLiteral("not_nsight.sqlite")) << "nsys";
        QTest::newRow("script") << fixture(QStringLiteral("gen_nsys_fixtures.py")) << "";
        if (QFileInfo::exists(realExport()))
            QTest::newRow("real") << realExport() << "nsys";
    }
    void sniff()
    {
        QFETCH(QString, file);
        QFETCH(QString, format);
        const QByteArray head = InputFile::peek(file, 65536);
        const Importer *imp = m_registry.find(head, QFileInfo(file).fileName());
        QCOMPARE(imp ? imp->id() : QString(), format);
    }

    // The schema text in the first pages decides, not the extension; a bare SQLite file scores low.
    void sniffScores()
    {
        const Importer *nsys = m_registry.byId(QStringLiteral("nsys"));
        QVERIFY(nsys);
        const QByteArray head = InputFile::peek(fixture(QStringLiteral("layout2024.sqlite")), 65536);
        QVERIFY(nsys->sniff(head, QStringLiteral("renamed.bin")) >= 80);
        const QByteArray foreign = InputFile::peek(fixture(QStringLiteral("not_nsight.sqlite")), 65536);
        QVERIFY(nsys->sniff(foreign, QStringLiteral("report.sqlite")) > 0);
        QVERIFY(nsys->sniff(foreign, QStringLiteral("report.sqlite")) < 50);
        QCOMPARE(nsys->sniff(QByteArrayView("{\"traceEvents\": []}"), QStringLiteral("x.sqlite")), 0);
    }

    void golden_data()
    {
        QTest::addColumn<QString>("file");
        for (const char *f : { "layout2024", "layout2022", "empty_tables", "missing_tables", "host_calls" })
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void golden()
    {
        QFETCH(QString, file);
        const QString ws = freshWorkspace();
        const QString path = fixture(file + QStringLiteral(".sqlite"));
        const QByteArray before = sha1Of(path);
        const auto r = importOne(ws, path);
        QVERIFY2(r.status == FileImportResult::Status::Imported, qPrintable(r.message));
        QCOMPARE(sha1Of(path), before);
        Workspace w(ws, Workspace::Role::Reader);
        compareGolden(csvOf(w.db(), kSlicesSql), fixture(file + QStringLiteral(".slices.csv")));
        compareGolden(csvOf(w.db(), kOtherSql), fixture(file + QStringLiteral(".other.csv")));
    }

    // nsys --trace=cublas,cudnn,mpi: the library calls land on their thread, its CPU samples on its
    // "CPU samples" row with their backtraces, its intervals on a CPU on its "On CPU" row (the slices
    // are in the golden CSV); Nsight's warnings and errors are the source's, each once, on one line;
    // tables of events this importer does not read are named with their rows, counted as skipped;
    // backtraces are read (the samples', the OS runtime and CUDA calls', in their args), so not listed.
    void hostCallsAndUnreadTables()
    {
        const QString ws = freshWorkspace();
        const FileImportResult r = importOne(ws, fixture(QStringLiteral("host_calls.sqlite")));
        QCOMPARE(int(r.status), int(FileImportResult::Status::Imported));
        // A page fault; a thread scheduled out before it was scheduled in, and scheduled in twice.
        QCOMPARE(r.skipped, 1 + 2);
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT skipped_count FROM source"), 3);
        QCOMPARE(w.db().queryInt("SELECT status = 'ok' FROM source"), 1);
        auto messages = diagnosticMessages(w.db());
        const std::pair<const char *, const char *> expected[] = {
            { "nsys-warning-1",
                "Nsight Systems warning (Injection): CUPTI dropped 12 activity records: the trace is "
                "incomplete." },
            { "nsys-warning-2",
                "Nsight Systems warning (Daemon): Unable to collect CPU samples. Change the paranoid "
                "level to 1." },
            { "nsys-error-3", "Nsight Systems error (Injection): CUDA injection failed for one process." },
            { "nsys-tables-not-imported",
                "Not imported: CUDA_UM_CPU_PAGE_FAULT_EVENTS (1 row: unified memory page "
                "faults). Plumb does not read these tables; their rows are counted as "
                "skipped." },
            { "sched-out-without-in",
                "A thread was scheduled out with no scheduled-in before it in the capture (it "
                "was running when the capture began); the interval was not imported." },
            { "sched-in-twice",
                "A thread was scheduled in twice without being scheduled out between; the first was "
                "not imported." },
        };
        for (const auto &[code, text] : expected)
            QCOMPARE(messages[QString::fromLatin1(code)], QString::fromLatin1(text));
        QVERIFY(!messages.count(QStringLiteral("nsys-warning-4"))); // the info message is not copied
        QVERIFY(!messages.count(QStringLiteral("nsys-backtraces-not-imported")));
        // Two OS runtime calls and a CUDA launch with their backtraces; a call whose callchain is not in
        // the table has none.
        QCOMPARE(backtraced(w.db(), "osrt", "read (libc.so.6)"), 2);
        QCOMPARE(backtraced(w.db(), "cuda_runtime", "cudaLaunchKernel (libtorch_cuda.so)"), 1);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM slice s JOIN string c ON c.id = s.cat_id "
                                 "WHERE c.str IN ('cublas', 'cudnn', 'mpi', 'profiler_overhead')"),
            2 + 4 + 2);
        const QList<TimelineTrack> tracks = timelineTracks(w, 1);
        const auto samples = std::find_if(tracks.begin(), tracks.end(),
            [](const TimelineTrack &t) { return t.kind == QLatin1String("cpu_samples"); });
        QVERIFY(samples != tracks.end());
        QCOMPARE(samples->name, QStringLiteral("CPU samples"));
        // Beneath its thread, after the thread's CUDA API row.
        const auto thread = std::find_if(tracks.begin(), tracks.end(),
            [](const TimelineTrack &t) { return t.kind == QLatin1String("thread"); });
        QCOMPARE(samples->parentTrackId, thread->id);
        QCOMPARE(samples - thread, 2);
        QCOMPARE(thread[1].kind, QStringLiteral("cuda_api"));
        // Its intervals on a CPU beneath the samples, named by the CPU; a click says why it left.
        QCOMPARE(thread[3].kind, QStringLiteral("on_cpu"));
        QCOMPARE(thread[3].name, QStringLiteral("On CPU"));
        QCOMPARE(thread[3].parentTrackId, thread->id);
        const std::optional<SliceInfo> onCpu = sliceAt(w, thread[3], 1500, 0, 5);
        QVERIFY(onCpu);
        QCOMPARE(onCpu->name, QStringLiteral("CPU 2"));
        QVERIFY2(onCpu->argsJson.contains(QStringLiteral(
                     "\"state when scheduled out\":\"Interruptible\",\"blocked on\":\"Mutex\"")),
            qPrintable(onCpu->argsJson));
        // A click near a sample finds it, with its backtrace.
        const std::optional<SliceInfo> clicked = sliceAt(w, *samples, 652, 0, 5);
        QVERIFY(clicked);
        QCOMPARE(clicked->name, QStringLiteral("[libcuda.so.550.54.15]"));
        QVERIFY2(clicked->argsJson.contains(
                     QStringLiteral("\"backtrace\":[\"0x7f72b474d6c9 (libcuda.so.550.54.15)\"")),
            qPrintable(clicked->argsJson));
    }

    // A launch and the GPU work it caused share slice.corr, within one process only.
    void correlation()
    {
        const QString ws = freshWorkspace();
        QCOMPARE(int(importOne(ws, fixture(QStringLiteral("layout2022.sqlite"))).status),
            int(FileImportResult::Status::Imported));
        Workspace w(ws, Workspace::Role::Reader);
        const char *sql
            = "SELECT count(*) FROM slice api JOIN track ka ON ka.id = api.track_id AND ka.kind = 'cuda_api' "
              "JOIN slice op ON op.corr = api.corr JOIN track ko ON ko.id = op.track_id AND ko.kind = "
              "'gpu_stream' "
              "JOIN process pa ON pa.id = ka.process_id";
        // Two launches (one per process) -> one kernel each; two memcpys likewise; no cross links.
        QCOMPARE(w.db().queryInt(sql), 2 + 2 + 1 /* the driver launch nested in p0's runtime launch */);
        // Those links are the trace's flows (an export has no flow events): each GPU op or sync whose
        // call is in the trace, once, and not an op whose call is not.
        const char *linked
            = "SELECT count(*) FROM slice op JOIN track k ON k.id = op.track_id "
              "WHERE k.kind <> 'cuda_api' AND op.corr IN (SELECT api.corr FROM slice api JOIN track "
              "ka ON ka.id = api.track_id AND ka.kind = 'cuda_api')";
        QCOMPARE(w.db().queryInt(linked), 4);
        QCOMPARE(w.db().queryInt("SELECT flow_count FROM trace"), w.db().queryInt(linked));
        QCOMPARE(w.db().queryInt("SELECT corr_flow_count FROM trace"), w.db().queryInt(linked));
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM flow"), 0);
    }

    void failuresLeaveWorkspaceUnchanged_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("not-nsight") << "not_nsight.sqlite"
                                    << "not an Nsight Systems export";
        QTest::newRow("truncated") << "truncated.sqlite"
                                   << "damaged or truncated";
        QTest::newRow("corrupt-table") << "corrupt_table.sqlite"
                                       << "CUPTI_ACTIVITY_KIND_KERNEL";
    }
    void failuresLeaveWorkspaceUnchanged()
    {
        QFETCH(QString, file);
        QFETCH(QString, messagePart);
        const QString ws = freshWorkspace();
        QCOMPARE(int(importOne(ws, fixture(QStringLiteral("layout2024.sqlite"))).status),
            int(FileImportResult::Status::Imported));
        const QString before = tableCounts(ws);
        const QByteArray hash = sha1Of(fixture(file));
        const auto r = importOne(ws, fixture(file));
        QCOMPARE(int(r.status), int(FileImportResult::Status::Failed));
        QVERIFY2(r.message.contains(messagePart), qPrintable(r.message));
        QVERIFY2(r.message.contains(file), qPrintable(r.message));
        QCOMPARE(tableCounts(ws), before);
        QCOMPARE(sha1Of(fixture(file)), hash);
        QVERIFY(!QFileInfo::exists(fixture(file) + QStringLiteral("-journal")));
        QVERIFY(!QFileInfo::exists(fixture(file) + QStringLiteral("-wal")));
    }

    void corruptTableIsNamed()
    {
        const auto r = importOne(freshWorkspace(), fixture(QStringLiteral("corrupt_table.sqlite")));
        QCOMPARE(int(r.status), int(FileImportResult::Status::Failed));
        QCOMPARE(r.location, QStringLiteral("table CUPTI_ACTIVITY_KIND_KERNEL"));
    }

    // The real export: counts, and every kernel, memcpy and runtime call against pipit's CSVs.
    void realExportCounts()
    {
        if (!QFileInfo::exists(realExport()))
            QSKIP("../shared/data/traces/nsys is absent: real-export tests skipped");
        const QString ws = freshWorkspace();
        const QByteArray before = sha1Of(realExport());
        const auto r = importOne(ws, realExport());
        QVERIFY2(r.status == FileImportResult::Status::Imported, qPrintable(r.message));
        QCOMPARE(sha1Of(realExport()), before);
        Workspace w(ws, Workspace::Role::Reader);
        auto catCount = [&](const char *cat) {
            return w.db().queryInt(
                std::string("SELECT count(*) FROM slice s JOIN string c ON c.id = s.cat_id "
                            "WHERE c.str = '")
                + cat + "'");
        };
        QCOMPARE(catCount("kernel"), 1312);
        QCOMPARE(w.db().queryInt("SELECT kernel_count FROM trace"), 1312);
        QCOMPARE(catCount("gpu_memcpy"), 279);
        QCOMPARE(w.db().queryInt("SELECT gpu_op_count FROM trace"), 1312 + 279);
        QCOMPARE(catCount("cuda_runtime") + catCount("cuda_driver"), 3048);
        QCOMPARE(catCount("cuda_driver"), 1); // cuModuleGetLoadingMode
        QCOMPARE(catCount("cuda_sync"), 1312);
        // Every GPU op and sync was launched by a call in the export: its flows.
        QCOMPARE(w.db().queryInt("SELECT flow_count FROM trace"), 1312 + 279 + 1312);
        QCOMPARE(catCount("osrt"), 1831);
        QCOMPARE(catCount("profiler_overhead"), 47);
        // Its CPU samples, on the rows of the 3 threads sampled, most of them in the CUDA driver, which
        // nsys could not symbolise: named by the library.
        QCOMPARE(catCount("cpu_sample"), 1531);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM track WHERE kind = 'cpu_samples'"), 3);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM slice s JOIN string n ON n.id = s.name_id "
                                 "WHERE n.str = '[libcuda.so.525.105.17]'"),
            1038);
        // Its thread scheduling: 627 intervals on a CPU of the 8 threads scheduled (every scheduled-out
        // has its scheduled-in), most of the main thread's on CPU 5.
        QCOMPARE(catCount("sched"), 627);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM track WHERE kind = 'on_cpu'"), 8);
        QCOMPARE(
            w.db().queryInt("SELECT count(*) FROM slice s JOIN track k ON k.id = s.track_id "
                            "JOIN string n ON n.id = s.name_id WHERE k.kind = 'on_cpu' AND n.str = 'CPU 5'"),
            319);
        // The OS runtime calls nsys took a backtrace of (those past its threshold): 608 of 1,831.
        QCOMPARE(backtraced(w.db(), "osrt"), 608);
        // What the export holds beyond that: nothing skipped, every backtrace read, Nsight's own
        // warnings kept (its info messages are not).
        QCOMPARE(w.db().queryInt("SELECT skipped_count FROM source"), 0);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM diagnostic WHERE code GLOB 'nsys-warning-*'"), 4);
        QCOMPARE(diagnosticMessages(w.db())[QStringLiteral("nsys-warning-2")],
            QStringLiteral("Nsight Systems warning (Injection): Installed CUDA driver version (12.0) is not "
                           "supported by this build of Nsight Systems. CUDA trace will be collected using "
                           "libraries for driver version 11.7"));
        QCOMPARE(w.db().queryInt("SELECT base_time_ns FROM trace"), Q_INT64_C(1696392839587175550));
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM device"), 4);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM process WHERE kind = 'gpu'"), 1);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM track WHERE kind = 'gpu_stream'"), 1);
        QCOMPARE(
            w.db().queryInt("SELECT count(*) FROM process WHERE name = 'cuda-cloverleaf' AND pid = 1701896"),
            1);
        // Every kernel and memcpy has its launch: same corr, on a CUDA API track.
        QCOMPARE(
            w.db().queryInt(
                "SELECT count(*) FROM slice op JOIN track k ON k.id = op.track_id AND k.kind = 'gpu_stream' "
                "WHERE NOT EXISTS (SELECT 1 FROM slice api JOIN track ka ON ka.id = api.track_id "
                "AND ka.kind = 'cuda_api' WHERE api.corr = op.corr)"),
            0);
        // And a click on each finds it (through slice_corr_tile): one launch, with the op's corr.
        {
            const QList<TimelineTrack> tracks = timelineTracks(w, 1);
            SqliteStmt ops(w.db(),
                "SELECT s.track_id, s.ts, s.id FROM slice s JOIN track k ON k.id = s.track_id "
                "WHERE k.kind = 'gpu_stream'");
            int linked = 0;
            while (ops.step()) {
                const TimelineTrack *track = nullptr;
                for (const auto &t : tracks)
                    if (t.id == ops.columnInt(0))
                        track = &t;
                QVERIFY(track);
                const auto op = sliceByKey(
                    w, *track, SliceKey { ops.columnInt(0), ops.columnInt(1), ops.columnInt(2) });
                QVERIFY(op);
                const auto links = sliceLinks(w, tracks, *op);
                const auto launches = std::count_if(links.begin(), links.end(), [&](const SliceLink &l) {
                    return l.kind == SliceLink::Kind::LaunchedBy && l.slice.corr == op->corr;
                });
                QCOMPARE(int(launches), 1);
                ++linked;
            }
            QCOMPARE(linked, 1312 + 279);
        }
        // Names lose their version suffix.
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM string WHERE str GLOB '*_v[0-9]*'"), 0);
        QCOMPARE(
            w.db().queryInt(
                "SELECT count(*) FROM slice s JOIN string n ON n.id = s.name_id "
                "JOIN track k ON k.id = s.track_id AND k.kind = 'cuda_api' WHERE n.str = 'cudaLaunchKernel'"),
            1312);
        const char *sql
            = "SELECT t.event_count AS events, t.slice_count AS slices, t.kernel_count AS kernels, "
              "t.gpu_op_count AS gpu_ops, (SELECT count(*) FROM track) AS tracks, "
              "(SELECT count(*) FROM process) AS processes, "
              "(SELECT group_concat(code || ':' || count, ' ') FROM diagnostic) AS diagnostics FROM trace t";
        compareGolden(csvOf(w.db(), sql), fixture(QStringLiteral("real_cloverleaf.csv")));
    }

    // CUDA graphs traced whole (nsys --cuda-graph-trace=graph) have no kernel rows: their GPU time is
    // in CUPTI_ACTIVITY_KIND_GRAPH_TRACE. Each launch is one op on its stream, linked to its
    // cudaGraphLaunch, counted as compute by the analyses, and the import says what it means.
    void graphTrace()
    {
        const QString ws = freshWorkspace();
        const FileImportResult r = importOne(ws, fixture(QStringLiteral("graph_trace.sqlite")));
        QCOMPARE(int(r.status), int(FileImportResult::Status::Imported));
        Workspace w(ws, Workspace::Role::Reader);
        SqliteStmt st(w.db(),
            "SELECT n.str, c.str, s.ts, s.dur, json_extract(a.json, '$.\"graph id\"'), "
            "json_extract(a.json, '$.\"graph exec id\"'), k.stream, "
            "(SELECT ns.str FROM slice api JOIN track ka ON ka.id = api.track_id AND ka.kind = 'cuda_api' "
            " JOIN string ns ON ns.id = api.name_id WHERE api.corr = s.corr) "
            "FROM slice s JOIN track k ON k.id = s.track_id AND k.kind = 'gpu_stream' "
            "JOIN string n ON n.id = s.name_id JOIN string c ON c.id = s.cat_id "
            "LEFT JOIN args a ON a.id = s.args_id ORDER BY s.ts");
        QStringList rows;
        while (st.step())
            rows << QStringLiteral("%1|%2|%3|%4|%5|%6|%7|%8")
                        .arg(st.columnText(0), st.columnText(1))
                        .arg(st.columnInt(2))
                        .arg(st.columnInt(3))
                        .arg(st.columnText(4), st.columnText(5))
                        .arg(st.columnInt(6))
                        .arg(st.columnText(7));
        QCOMPARE(rows,
            QStringList({
                QStringLiteral("void rms_norm_kernel<float>(float*, float const*, "
                               "int)|kernel|1300|700|||7|cudaLaunchKernel"),
                QStringLiteral("CUDA graph 5|cuda_graph|2400|6600|5|12|7|cudaGraphLaunch"),
                QStringLiteral("CUDA graph 5|cuda_graph|9400|5600|5|12|7|cudaGraphLaunch"),
            }));
        QCOMPARE(w.db().queryInt("SELECT kernel_count FROM trace"), 1);
        QCOMPARE(w.db().queryInt("SELECT count FROM diagnostic WHERE code = 'cuda-graph-trace'"), 2);

        const std::vector<GpuOp> ops
            = readGpuOps(w, w.db().queryInt("SELECT id FROM trace"), GpuOpMode::LinkedOnly);
        QCOMPARE(int(ops.size()), 3);
        int64_t busy = 0;
        for (const GpuOp &op : ops) {
            QCOMPARE(int(op.kind), int(GpuOp::Kind::Compute));
            QVERIFY(op.launchNs >= 0);
            busy += op.endNs - op.startNs;
        }
        QCOMPARE(busy, Q_INT64_C(700 + 6600 + 5600));
    }

    // nsys --gpu-metrics-devices: each sampled metric is a counter track, named as
    // TARGET_INFO_GPU_METRICS names it, its samples in time order whatever order they were stored in.
    void gpuMetrics()
    {
        const QString ws = freshWorkspace();
        const FileImportResult r = importOne(ws, fixture(QStringLiteral("gpu_metrics.sqlite")));
        QCOMPARE(int(r.status), int(FileImportResult::Status::Imported));
        Workspace w(ws, Workspace::Role::Reader);
        SqliteStmt st(w.db(),
            "SELECT p.name, k.name, group_concat(c.ts || '=' || c.value, ' ') FROM "
            "(SELECT * FROM counter ORDER BY track_id, ts) c JOIN track k ON k.id = c.track_id "
            "JOIN process p ON p.id = k.process_id GROUP BY k.id ORDER BY p.name, k.name");
        QStringList rows;
        while (st.step())
            rows << st.columnText(0) + QLatin1Char('|') + st.columnText(1) + QLatin1Char('|')
                    + st.columnText(2);
        QCOMPARE(rows,
            QStringList({
                QStringLiteral("GPU metrics: GH100|SM Active [Throughput %]|1000=0.0 2000=10.0 3000=20.0 "
                               "4000=30.0 5000=40.0 6000=50.0 7000=60.0 8000=70.0"),
                QStringLiteral("GPU metrics: GH100|Tensor Active [Throughput %]|1000=0.0 2000=5.0 3000=10.0 "
                               "4000=15.0 5000=20.0 6000=25.0 7000=30.0 8000=35.0"),
                QStringLiteral("GPU metrics: GH100|metric 9|4500=0.25"),
                QStringLiteral("GPU metrics: GH100 (2)|SM Active [Throughput %]|3000=99.0"),
            }));
        QCOMPARE(w.db().queryInt("SELECT counter_count FROM trace"), 18);
        QCOMPARE(w.db().queryInt("SELECT kernel_count FROM trace"), 1);
    }

    // Allocations and frees become a running total per process and device (and one for pinned host
    // memory): a free releases what its address was allocated with, wherever it was allocated.
    void memoryUsage()
    {
        const QString ws = freshWorkspace();
        const FileImportResult r = importOne(ws, fixture(QStringLiteral("memory_usage.sqlite")));
        QCOMPARE(int(r.status), int(FileImportResult::Status::Imported));
        Workspace w(ws, Workspace::Role::Reader);
        SqliteStmt st(w.db(),
            "SELECT p.pid, k.name, group_concat(c.ts || '=' || CAST(c.value / 1048576 AS TEXT), ' ') "
            "FROM (SELECT * FROM counter ORDER BY track_id, ts, id) c JOIN track k ON k.id = c.track_id "
            "JOIN process p ON p.id = k.process_id GROUP BY k.id ORDER BY p.pid, k.name");
        QStringList rows;
        while (st.step())
            rows << st.columnText(0) + QLatin1Char('|') + st.columnText(1) + QLatin1Char('|')
                    + st.columnText(2);
        QCOMPARE(rows,
            QStringList({
                QStringLiteral("7100|Memory allocated, CUDA host|2500=2.0"),
                QStringLiteral(
                    "7100|Memory allocated, device 0|1000=1.0 2000=5.0 3000=4.0 3500=4.0 5000=0.0"),
                QStringLiteral("7100|Memory allocated, device 1|4000=8.0 4500=2.0"),
                QStringLiteral("7200|Memory allocated, device 0|1500=16.0 6000=0.0"),
            }));
        QCOMPARE(w.db().queryInt("SELECT counter_count FROM trace"), 10);
        QCOMPARE(
            w.db().queryInt("SELECT count FROM diagnostic WHERE code = 'memory-freed-before-allocated'"), 1);
        QCOMPARE(w.db().queryInt("SELECT count FROM diagnostic WHERE code = 'unknown-memory-operation'"), 1);
    }

    // nsys --trace=mpi: the export of one rank says which (no guess from the file name); a report of
    // several ranks labels each process with its own.
    void mpiRanks()
    {
        const QString ws = freshWorkspace();
        const FileImportResult one = importOne(ws, fixture(QStringLiteral("mpi_one_rank.sqlite")));
        QCOMPARE(int(one.status), int(FileImportResult::Status::Imported));
        const FileImportResult two = importOne(ws, fixture(QStringLiteral("mpi_two_ranks.sqlite")));
        QCOMPARE(int(two.status), int(FileImportResult::Status::Imported));
        Workspace w(ws, Workspace::Role::Reader);
        SqliteStmt st(w.db(),
            "SELECT t.name, coalesce(t.rank, '-'), (SELECT group_concat(p.name, ', ') FROM "
            "(SELECT name FROM process WHERE trace_id = t.id ORDER BY pid) p) FROM trace t ORDER BY t.id");
        QStringList rows;
        while (st.step())
            rows << st.columnText(0) + QLatin1Char('|') + st.columnText(1) + QLatin1Char('|')
                    + st.columnText(2);
        QCOMPARE(rows,
            QStringList({ QStringLiteral("mpi_one_rank.sqlite|3|train.py"),
                QStringLiteral("mpi_two_ranks.sqlite|-|train.py [rank 0], train.py [rank 1]") }));
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'rank-from-file-name'"), 0);
    }

    // Exports that declared every column NOT NULL (2021 and before) wrote defaults for what was
    // missing: a mark's end 0 is no end, a range named through textId has text '', and of the six
    // payload columns only a non-zero one is the payload.
    void notNullLayout()
    {
        const QString ws = freshWorkspace();
        const FileImportResult r = importOne(ws, fixture(QStringLiteral("layout2021.sqlite")));
        QCOMPARE(int(r.status), int(FileImportResult::Status::Imported));
        Workspace w(ws, Workspace::Role::Reader);
        SqliteStmt st(w.db(),
            "SELECT n.str, s.ts, s.dur, coalesce(a.json, '') FROM slice s "
            "JOIN string n ON n.id = s.name_id JOIN string c ON c.id = s.cat_id AND c.str = 'nvtx' "
            "LEFT JOIN args a ON a.id = s.args_id ORDER BY s.ts");
        QStringList rows;
        while (st.step())
            rows << QStringLiteral("%1|%2|%3|%4")
                        .arg(st.columnText(0))
                        .arg(st.columnInt(1))
                        .arg(st.columnInt(2))
                        .arg(st.columnText(3));
        QCOMPARE(rows,
            QStringList({
                QStringLiteral("step|1000|4000|"),
                QStringLiteral("forward (registered)|1050|950|"),
                QStringLiteral("batch|2100|400|{\"payload\":7}"),
                QStringLiteral("lr|2600|300|{\"payload\":0.5}"),
                QStringLiteral("checkpoint|3000|0|"),
                QStringLiteral("never ended|6000|0|"),
            }));
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'negative-duration'"), 0);
        QCOMPARE(w.db().queryInt("SELECT count FROM diagnostic WHERE code = 'unterminated-nvtx-range'"), 1);
        QCOMPARE(w.db().queryInt("SELECT kernel_count FROM trace"), 1);
    }

    // NVTX ranges projected onto the GPU, as Nsight Systems shows them: on each stream's annotation
    // track, a range spans the GPU ops its CUDA calls launched, every enclosing range too; a launch
    // outside any range and a range that launched nothing project nothing; two processes that number
    // their calls alike each get their own ranges.
    void nvtxProjection()
    {
        const QString ws = freshWorkspace();
        const FileImportResult r = importOne(ws, fixture(QStringLiteral("nvtx_projection.sqlite")));
        QCOMPARE(int(r.status), int(FileImportResult::Status::Imported));
        Workspace w(ws, Workspace::Role::Reader);
        SqliteStmt st(w.db(),
            "SELECT p.name, k.label, n.str, s.ts, s.dur, s.depth, json_extract(a.json, '$.\"GPU ops\"') "
            "FROM slice s JOIN track k ON k.id = s.track_id AND k.kind = 'gpu_annotation' "
            "JOIN process p ON p.id = k.process_id JOIN string n ON n.id = s.name_id "
            "JOIN string c ON c.id = s.cat_id AND c.str = 'gpu_user_annotation' "
            "JOIN args a ON a.id = s.args_id ORDER BY p.name, k.label, s.ts, s.depth");
        QStringList rows;
        while (st.step())
            rows << QStringLiteral("%1|%2|%3|%4|%5|%6|%7")
                        .arg(st.columnText(0).section(QLatin1Char(':'), 0, 0), st.columnText(1),
                            st.columnText(2))
                        .arg(st.columnInt(3))
                        .arg(st.columnInt(4))
                        .arg(st.columnInt(5))
                        .arg(st.columnInt(6));
        QCOMPARE(rows,
            QStringList({
                QStringLiteral("GPU 0|stream 7|train|1100|400|0|2"),
                QStringLiteral("GPU 0|stream 7|fwd|1100|100|1|1"),
                QStringLiteral("GPU 0|stream 7|bwd|1300|200|1|1"),
                QStringLiteral("GPU 0|stream 8|train|1250|150|0|1"),
                QStringLiteral("GPU 0|stream 8|bwd|1250|150|1|1"),
                QStringLiteral("GPU 1|stream 7|eval|300|500|0|1"),
            }));
        // The projections are not GPU ops: the kernels and the copy are.
        QCOMPARE(w.db().queryInt("SELECT kernel_count FROM trace"), 4);
        const std::vector<GpuOp> ops
            = readGpuOps(w, w.db().queryInt("SELECT id FROM trace"), GpuOpMode::EveryOp);
        QCOMPARE(int(ops.size()), 5);
    }

    // A PROCESSES table without globalPid names every process by its pid (not only the first one).
    void processNamesByPid()
    {
        const QString path = m_tmp.filePath(QStringLiteral("processes_by_pid.sqlite"));
        {
            SqliteDb db(path, SqliteDb::OpenMode::ReadWriteCreate);
            db.exec("CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
                    "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000');"
                    "CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);"
                    "CREATE TABLE PROCESSES (pid INTEGER, name TEXT);"
                    "INSERT INTO PROCESSES VALUES (301, 'loader'), (302, 'trainer');"
                    "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                    "globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER "
                    "NOT NULL);");
            SqliteStmt ins(db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, ?, ?, 1, 0)");
            for (int64_t pid : { 301, 302 })
                ins.bind(1, pid * 10).bind(2, pid * 10 + 5).bind(3, (pid << 24) | pid).bind(4, pid).run();
        }
        const QString ws = freshWorkspace();
        const FileImportResult r = importOne(ws, path);
        QCOMPARE(int(r.status), int(FileImportResult::Status::Imported));
        Workspace w(ws, Workspace::Role::Reader);
        SqliteStmt st(w.db(), "SELECT group_concat(name, ', ') FROM (SELECT name FROM process ORDER BY pid)");
        QVERIFY(st.step());
        QCOMPARE(st.columnText(0), QStringLiteral("loader, trainer"));
    }

    // A table past kMinPartRows (100k rows) is read in rowid ranges on several threads and the parts
    // merged. Rows here are stored out of time order, and each start has two calls, the shorter in
    // the first half of the table, the longer (enclosing it) in the second: merged as one sorted
    // table, the longer comes first (depth 0) and nothing needs re-sorting. The timeline summaries,
    // built from the rows as they were written, match a rebuild from the workspace.
    void largeTableReadInParts()
    {
        const QString path = m_tmp.filePath(QStringLiteral("large_runtime.sqlite"));
        constexpr int64_t kStarts = 120'000;
        constexpr int64_t kTid = (int64_t(100) << 24) | 101;
        {
            SqliteDb db(path, SqliteDb::OpenMode::ReadWriteCreate);
            db.exec("CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
                    "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, "
                    "'cudaStreamSynchronize_v3020');"
                    "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                    "eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER "
                    "NOT NULL, "
                    "returnValue INTEGER NOT NULL)");
            SqliteTransaction tx(db);
            SqliteStmt ins(db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, 0, ?, ?, ?, 0)");
            for (int64_t i = 0; i < kStarts; ++i) { // short calls, latest first
                const int64_t start = (kStarts - i) * 1000;
                ins.bind(1, start).bind(2, start + 100).bind(3, kTid).bind(4, 2 * i + 1).bind(5, 1).run();
            }
            for (int64_t i = 0; i < kStarts; ++i) { // the long ones, earliest first
                const int64_t start = (i + 1) * 1000;
                ins.bind(1, start).bind(2, start + 800).bind(3, kTid).bind(4, 2 * i + 2).bind(5, 2).run();
            }
            tx.commit();
        }
        const QString ws = freshWorkspace();
        const FileImportResult r = importOne(ws, path);
        QCOMPARE(int(r.status), int(FileImportResult::Status::Imported));
        Workspace w(ws, Workspace::Role::Writer);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM slice"), 2 * kStarts);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM slice WHERE (dur = 800) <> (depth = 0)"), 0);
        QCOMPARE(w.db().queryInt("SELECT max(depth) FROM slice"), 1);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM diagnostic WHERE code IN ('unsorted-events', "
                                 "'overlapping-slices')"),
            0);

        auto tiles = [&w] {
            QStringList out;
            SqliteStmt st(w.db(),
                "SELECT l.track_id, l.level, l.tile, hex(l.data), k.lod_origin_ns FROM slice_lod l "
                "JOIN track k ON k.id = l.track_id ORDER BY 1, 2, 3");
            while (st.step())
                out << QStringLiteral("%1 %2 %3 %4 %5")
                           .arg(st.columnInt(0))
                           .arg(st.columnInt(1))
                           .arg(st.columnInt(2))
                           .arg(st.columnText(3))
                           .arg(st.columnInt(4));
            return out;
        };
        const QStringList atImport = tiles();
        QVERIFY(atImport.size() > 10);
        SqliteTransaction tx(w.db());
        buildSliceSummaries(w.db(), w.db().queryInt("SELECT id FROM trace"));
        QCOMPARE(tiles(), atImport);
    }

    void realExportMatchesPipit()
    {
        if (!QFileInfo::exists(realExport()))
            QSKIP("../shared/data/traces/nsys is absent: real-export tests skipped");
        const QString dir = QFileInfo(realExport()).absolutePath();
        const QString ws = freshWorkspace();
        QCOMPARE(int(importOne(ws, realExport()).status), int(FileImportResult::Status::Imported));
        Workspace w(ws, Workspace::Role::Reader);

        // GPU: kernels by pipit's short name, memcpys by copy kind and bytes; both with stream and ns times.
        const auto gpu
            = readPipit(dir + QStringLiteral("/cloverleaf_gpu_trace.csv"), QStringLiteral("streamId"));
        QCOMPARE(int(gpu.size()), 1312 + 279);
        SqliteStmt st(w.db(),
            "SELECT s.ts, s.ts + s.dur, k.stream, c.str, coalesce(json_extract(a.json, '$.\"short name\"'), "
            "n.str), "
            "json_extract(a.json, '$.copyKind'), json_extract(a.json, '$.bytes') "
            "FROM slice s JOIN track k ON k.id = s.track_id AND k.kind = 'gpu_stream' "
            "JOIN string n ON n.id = s.name_id JOIN string c ON c.id = s.cat_id "
            "LEFT JOIN args a ON a.id = s.args_id ORDER BY s.ts, s.id");
        size_t i = 0;
        for (; st.step(); ++i) {
            QVERIFY(i < gpu.size());
            const PipitEvent &e = gpu[i];
            QCOMPARE(st.columnInt(0), e.enter);
            QCOMPARE(st.columnInt(1), e.leave);
            QCOMPARE(QString::number(st.columnInt(2)), e.where);
            if (e.type == QLatin1String("kernel")) {
                QCOMPARE(st.columnText(3), QStringLiteral("kernel"));
                QCOMPARE(st.columnText(4), e.name);
            } else {
                QCOMPARE(st.columnText(3), QStringLiteral("gpu_memcpy"));
                // pipit: CUDA_MEMCPY_KIND_HTOD; here: HtoD.
                QCOMPARE(st.columnText(5).toUpper(), e.type.mid(int(strlen("CUDA_MEMCPY_KIND_"))));
                QCOMPARE(st.columnText(6), e.bytes);
            }
        }
        QCOMPARE(i, gpu.size());

        // CUDA API: same calls, same thread, same ns times; names without the version suffix.
        const auto api
            = readPipit(dir + QStringLiteral("/cloverleaf_cuda_api_trace.csv"), QStringLiteral("Thread"));
        QCOMPARE(int(api.size()), 3048);
        std::multimap<std::tuple<qint64, qint64, QString>, QString> expected;
        static const QRegularExpression suffix(QStringLiteral("_v\\d+$"));
        for (const auto &e : api)
            expected.emplace(std::make_tuple(e.enter, e.leave, QString(e.name).remove(suffix)), e.where);
        SqliteStmt a(w.db(),
            "SELECT s.ts, s.ts + s.dur, n.str, k.tid FROM slice s "
            "JOIN track k ON k.id = s.track_id AND k.kind = 'cuda_api' "
            "JOIN string n ON n.id = s.name_id");
        int matched = 0;
        while (a.step()) {
            auto it = expected.find(std::make_tuple(a.columnInt(0), a.columnInt(1), a.columnText(2)));
            QVERIFY2(it != expected.end(), qPrintable(a.columnText(2)));
            QCOMPARE(QString::number(a.columnInt(3)), it->second);
            expected.erase(it);
            ++matched;
        }
        QCOMPARE(matched, 3048);
        QVERIFY(expected.empty());
    }
};

QTEST_GUILESS_MAIN(TestNsysImporter)
#include "tst_nsysimporter.moc"
