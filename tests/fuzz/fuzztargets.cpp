// SPDX-License-Identifier: GPL-3.0-or-later
#include "fuzztargets.h"

#include "builtinimporters.h"
#include "ingest/importcontext.h"
#include "ingest/importer.h"
#include "ingest/importerregistry.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "serving/objectivesfile.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace plumb::fuzz {
namespace {

[[noreturn]] void finding(const char *what, const QString &detail)
{
    std::fprintf(stderr, "FUZZ FINDING: %s: %s\n", what, qPrintable(detail));
    std::abort();
}

// A scratch folder (in memory where /dev/shm exists) holding the input files and one workspace,
// open for the whole run: each input is read in a transaction that is always rolled back, so every
// input meets the same workspace and nothing piles up. (The runner's own promise, that a failed
// import leaves the workspace as it was, is tested by tst_craftedsqlite, tst_hostileinput and the
// kill tests; here the parsers get the executions.)
class Scratch {
public:
    Scratch()
        : m_dir(QDir(QStringLiteral("/dev/shm")).exists()
                ? QStringLiteral("/dev/shm/plumb-fuzz-XXXXXX")
                : QDir::tempPath() + QStringLiteral("/plumb-fuzz-XXXXXX"))
    {
        if (!m_dir.isValid())
            finding("setup", QStringLiteral("cannot create a scratch folder"));
        registerBuiltinImporters(m_registry);
        m_workspace = std::make_unique<Workspace>(
            m_dir.filePath(QStringLiteral("fuzz.plumb")), Workspace::Role::Writer);
    }
    QString path(const QString &name) const { return m_dir.filePath(name); }
    SqliteDb &db() { return m_workspace->db(); }
    const Importer &importer(const char *id) const
    {
        const Importer *imp = m_registry.byId(QLatin1String(id));
        if (!imp)
            finding("setup", QStringLiteral("no importer %1 in this build").arg(QLatin1String(id)));
        return *imp;
    }

private:
    QTemporaryDir m_dir;
    ImporterRegistry m_registry;
    std::unique_ptr<Workspace> m_workspace;
};

Scratch &scratch()
{
    static Scratch s;
    return s;
}

// Writes a file of the input; false when the path cannot be a file (a folder of that name, or a
// file where a folder of the path should be: inputs naming both "tags" and "tags/x").
bool tryWrite(const QString &path, const uint8_t *data, size_t size)
{
    QDir().mkpath(path.section(QLatin1Char('/'), 0, -2));
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && f.write(reinterpret_cast<const char *>(data), qint64(size)) == qint64(size);
}

void write(const QString &path, const uint8_t *data, size_t size)
{
    if (!tryWrite(path, data, size))
        finding("setup", QStringLiteral("cannot write %1").arg(path));
}

// Reads `path` with importer `id` as the runner does (the importer's read() and the sinks' finish()),
// then rolls it back. An import may fail, but only with an ImportError that says something; any
// other exception escapes and aborts: a finding.
void importAndCheck(const char *id, const QString &path)
{
    Scratch &s = scratch();
    static const bool verbose = qEnvironmentVariableIsSet("PLUMB_FUZZ_VERBOSE");
    SqliteTransaction tx(s.db()); // never committed
    const int64_t sourceId = s.db().queryInt("SELECT max(id) FROM source", 0) + 1;
    try {
        InputFile input(path);
        input.open();
        ImportContext ctx(s.db(), input, sourceId, QLatin1String(id), nullptr, {});
        const Importer &importer = s.importer(id);
        importer.read(ctx);
        ctx.finish();
        if (verbose)
            std::fprintf(stderr, "read: %lld records\n", static_cast<long long>(ctx.recordsRead));
    } catch (const ImportError &e) {
        if (e.message().isEmpty())
            finding("an import failed without a message", path);
        if (verbose)
            std::fprintf(stderr, "failed: %s\n", qPrintable(e.message()));
    } catch (const SqlError &e) {
        // What an importer wrote broke a constraint of the workspace: the runner reports it as a
        // failed import, but an importer should not produce it.
        finding("the workspace refused what an importer wrote", e.message());
    }
}

void importBytes(const char *id, const char *fileName, const uint8_t *data, size_t size)
{
    const QString path = scratch().path(QLatin1String(fileName));
    write(path, data, size);
    importAndCheck(id, path);
}

// An MLflow file-store run from one input: the run's meta.yaml, then files of the run folder, each
// after a line "=== metrics/loss" (a relative path of letters, digits, '.', '_' and '/'; a name
// "experiment.yaml" is the experiment's meta.yaml above the run).
void mlflowFileStore(const uint8_t *data, size_t size)
{
    const QString root = scratch().path(QStringLiteral("mlruns"));
    QDir(root).removeRecursively();
    const QString runDir = root + QStringLiteral("/0/0123456789abcdef0123456789abcdef");
    const QByteArray all(reinterpret_cast<const char *>(data), qsizetype(size));
    const QList<QByteArray> parts = all.split('\x1e'); // record separator between files
    const auto safe = [](const QByteArray &rel) {
        if (rel.isEmpty() || rel.size() > 64 || rel.startsWith('/') || rel.contains(".."))
            return false;
        for (const char c : rel)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '/'
                    || c == '-'))
                return false;
        return true;
    };
    write(runDir + QStringLiteral("/meta.yaml"), reinterpret_cast<const uint8_t *>(parts[0].constData()),
        size_t(parts[0].size()));
    for (qsizetype i = 1; i < parts.size() && i < 32; ++i) {
        const qsizetype nl = parts[i].indexOf('\n');
        const QByteArray rel = parts[i].left(nl < 0 ? parts[i].size() : nl).trimmed();
        if (!safe(rel))
            continue;
        const QByteArray body = nl < 0 ? QByteArray() : parts[i].mid(nl + 1);
        const QString file = rel == "experiment.yaml"
            ? QString(root + QStringLiteral("/0/meta.yaml"))
            : QString(runDir + QLatin1Char('/') + QString::fromLatin1(rel));
        (void)tryWrite(file, reinterpret_cast<const uint8_t *>(body.constData()),
            size_t(body.size())); // a clash: skipped
    }
    importAndCheck("mlflow", runDir + QStringLiteral("/meta.yaml"));
}

// Lightning's hparams.yaml or W&B's config.yaml: the first byte picks the name (even, odd).
void paramsFile(const uint8_t *data, size_t size)
{
    const char *names[] = { "hparams.yaml", "config.yaml" };
    const char *name = names[size ? data[0] % 2 : 0];
    importBytes("paramsfile", name, size ? data + 1 : data, size ? size - 1 : 0);
}

void objectives(const uint8_t *data, size_t size)
{
    ObjectivesError error;
    const auto parsed
        = parseObjectives(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)), error);
    if (!parsed && (error.message.isEmpty() || error.line < 0 || error.column < 0))
        finding("objectives rejected without a message and place", error.message);
}

template <const char *Id, const char *Name> void simple(const uint8_t *data, size_t size)
{
    importBytes(Id, Name, data, size);
}

void tabular(const uint8_t *data, size_t size)
{
    // The first byte picks the dialect's file name: CSV, TSV, JSONL or a log.
    const char *names[] = { "metrics.csv", "metrics.tsv", "metrics.jsonl", "train.log" };
    const char *name = names[size ? data[0] % 4 : 0];
    importBytes("tabular", name, size ? data + 1 : data, size ? size - 1 : 0);
}

constexpr char kChrome[] = "chrometrace", kChromeName[] = "trace.json", kGzName[] = "trace.json.gz";
constexpr char kNsys[] = "nsys", kNsysName[] = "report.sqlite";
constexpr char kXplane[] = "xplane", kXplaneName[] = "host.xplane.pb";
constexpr char kTfevents[] = "tfevents", kTfeventsName[] = "events.out.tfevents.1700000000.host";
constexpr char kMlflow[] = "mlflow", kMlflowDb[] = "mlflow.db";
constexpr char kMlmd[] = "mlmd", kMlmdName[] = "metadata.sqlite";
constexpr char kLineage[] = "openlineage", kLineageName[] = "events.json";
constexpr char kLifecycle[] = "lifecycle", kLifecycleName[] = "job.jsonl";
constexpr char kVllm[] = "vllm-bench", kVllmName[] = "result.json";
constexpr char kHfTrainer[] = "hf-trainer", kHfTrainerName[] = "trainer_state.json";

} // namespace

const std::vector<Target> &targets()
{
    static const std::vector<Target> all = {
        { "chrometrace", &simple<kChrome, kChromeName>, "Chrome trace / Kineto JSON" },
        { "gzip", &simple<kChrome, kGzName>, "the gzip layer (InputFile), under a Kineto .json.gz" },
        { "nsys", &simple<kNsys, kNsysName>, "Nsight Systems SQLite export" },
        { "xplane", &simple<kXplane, kXplaneName>, "XPlane protobuf" },
        { "tfevents", &simple<kTfevents, kTfeventsName>, "TFRecord / TensorBoard event file" },
        { "mlflow_file", &mlflowFileStore, "MLflow file store run (meta.yaml and its files)" },
        { "mlflow_sql", &simple<kMlflow, kMlflowDb>, "MLflow SQL store (SQLite)" },
        { "tabular", &tabular, "CSV/TSV/JSONL/log metric or request log" },
        { "mlmd", &simple<kMlmd, kMlmdName>, "ML Metadata store (SQLite)" },
        { "openlineage", &simple<kLineage, kLineageName>, "OpenLineage events (JSON, NDJSON)" },
        { "lifecycle", &simple<kLifecycle, kLifecycleName>, "job lifecycle log (goodput)" },
        { "vllm", &simple<kVllm, kVllmName>, "vLLM serving benchmark result" },
        { "hftrainer", &simple<kHfTrainer, kHfTrainerName>,
            "Hugging Face Trainer state (trainer_state.json)" },
        { "paramsfile", &paramsFile, "Lightning hparams.yaml, W&B config.yaml (YAML)" },
        { "objectives", &objectives, "objectives file (YAML or JSON)" },
    };
    return all;
}

const Target *findTarget(std::string_view name)
{
    for (const auto &t : targets())
        if (name == t.name)
            return &t;
    return nullptr;
}

} // namespace plumb::fuzz
