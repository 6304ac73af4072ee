// SPDX-License-Identifier: GPL-3.0-or-later
// bench_import_mlmd: end-to-end import of ML Metadata (MLMD) SQLite stores into the lineage graph.
//
//   bench_import_mlmd [--artifacts 100000,300000] [--keep DIR]
//   bench_import_mlmd --import-only FILE WORKSPACE      (internal: one import, one JSON line)
//   bench_import_mlmd --artifacts N --output FILE       (only writes the store of N artifacts to FILE)
//
// For each size a synthetic schema-10 store is generated with the sqlite3 C API (not timed): N
// artifacts, N/2 executions, ~3N events (each execution reads 4 earlier artifacts and writes 2),
// two property rows per artifact and execution, two EventPath steps per event, one pipeline
// context and a pipeline_run context per 100 executions (associations, attributions, parents).
// It is then imported into a fresh workspace by a child process running the real path
// (ImporterRegistry + registerBuiltinImporters + ImportRunner), so the peak RSS reported is the
// import's own. Informational: the exit status is 0 whatever the figures.

#include "benchimport.h"
#include "ingest/importrunner.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <sqlite3.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace plumb::bench;

constexpr int64_t kExecutionsPerRun = 100;

struct GenStats {
    int64_t artifacts = 0, executions = 0, contexts = 0, events = 0, rows = 0;
    int64_t fileBytes = 0;
};

class Stmt {
public:
    Stmt(sqlite3 *db, const char *sql)
        : m_db(db)
    {
        sqlite3_prepare_v2(db, sql, -1, &m_st, nullptr);
    }
    ~Stmt() { sqlite3_finalize(m_st); }
    Stmt &bind(int i, int64_t v)
    {
        sqlite3_bind_int64(m_st, i, v);
        return *this;
    }
    Stmt &bind(int i, double v)
    {
        sqlite3_bind_double(m_st, i, v);
        return *this;
    }
    Stmt &bind(int i, const std::string &s)
    {
        sqlite3_bind_text(m_st, i, s.c_str(), int(s.size()), SQLITE_TRANSIENT);
        return *this;
    }
    // Rows the statement changed (0 for an INSERT OR IGNORE that was ignored).
    int64_t run()
    {
        const int rc = sqlite3_step(m_st);
        sqlite3_reset(m_st);
        return rc == SQLITE_DONE ? sqlite3_changes(m_db) : 0;
    }

private:
    sqlite3 *m_db;
    sqlite3_stmt *m_st = nullptr;
};

// ML Metadata's SQLite tables at schema version 10 (ml_metadata/util/metadata_source_query_config.cc),
// as tests/importers/mlmd/data/gen_mlmd_store.py writes them.
constexpr const char *kSchema = R"sql(
CREATE TABLE `Type` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `name` VARCHAR(255) NOT NULL, `version` VARCHAR(255),
    `type_kind` TINYINT(1) NOT NULL, `description` TEXT, `input_type` TEXT, `output_type` TEXT,
    `external_id` VARCHAR(255) UNIQUE);
CREATE TABLE `ParentType` (`type_id` INT NOT NULL, `parent_type_id` INT NOT NULL,
    PRIMARY KEY (`type_id`, `parent_type_id`));
CREATE TABLE `TypeProperty` (`type_id` INT NOT NULL, `name` VARCHAR(255) NOT NULL, `data_type` INT NULL,
    PRIMARY KEY (`type_id`, `name`));
CREATE TABLE `Artifact` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `type_id` INT NOT NULL, `uri` TEXT, `state` INT,
    `name` VARCHAR(255), `external_id` VARCHAR(255) UNIQUE, `create_time_since_epoch` INT NOT NULL DEFAULT 0,
    `last_update_time_since_epoch` INT NOT NULL DEFAULT 0, UNIQUE(`type_id`, `name`));
CREATE TABLE `ArtifactProperty` (`artifact_id` INT NOT NULL, `name` VARCHAR(255) NOT NULL,
    `is_custom_property` TINYINT(1) NOT NULL, `int_value` INT, `double_value` DOUBLE, `string_value` TEXT,
    `byte_value` BLOB, `proto_value` BLOB, `bool_value` BOOLEAN,
    PRIMARY KEY (`artifact_id`, `name`, `is_custom_property`));
CREATE TABLE `Execution` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `type_id` INT NOT NULL, `last_known_state` INT,
    `name` VARCHAR(255), `external_id` VARCHAR(255) UNIQUE, `create_time_since_epoch` INT NOT NULL DEFAULT 0,
    `last_update_time_since_epoch` INT NOT NULL DEFAULT 0, UNIQUE(`type_id`, `name`));
CREATE TABLE `ExecutionProperty` (`execution_id` INT NOT NULL, `name` VARCHAR(255) NOT NULL,
    `is_custom_property` TINYINT(1) NOT NULL, `int_value` INT, `double_value` DOUBLE, `string_value` TEXT,
    `byte_value` BLOB, `proto_value` BLOB, `bool_value` BOOLEAN,
    PRIMARY KEY (`execution_id`, `name`, `is_custom_property`));
CREATE TABLE `Context` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `type_id` INT NOT NULL, `name` VARCHAR(255) NOT NULL,
    `external_id` VARCHAR(255) UNIQUE, `create_time_since_epoch` INT NOT NULL DEFAULT 0,
    `last_update_time_since_epoch` INT NOT NULL DEFAULT 0, UNIQUE(`type_id`, `name`));
CREATE TABLE `ContextProperty` (`context_id` INT NOT NULL, `name` VARCHAR(255) NOT NULL,
    `is_custom_property` TINYINT(1) NOT NULL, `int_value` INT, `double_value` DOUBLE, `string_value` TEXT,
    `byte_value` BLOB, `proto_value` BLOB, `bool_value` BOOLEAN,
    PRIMARY KEY (`context_id`, `name`, `is_custom_property`));
CREATE TABLE `ParentContext` (`context_id` INT NOT NULL, `parent_context_id` INT NOT NULL,
    PRIMARY KEY (`context_id`, `parent_context_id`));
CREATE TABLE `Event` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `artifact_id` INT NOT NULL,
    `execution_id` INT NOT NULL, `type` INT NOT NULL, `milliseconds_since_epoch` INT,
    UNIQUE(`artifact_id`, `execution_id`, `type`));
CREATE TABLE `EventPath` (`event_id` INT NOT NULL, `is_index_step` TINYINT(1) NOT NULL, `step_index` INT,
    `step_key` TEXT);
CREATE TABLE `Association` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `context_id` INT NOT NULL,
    `execution_id` INT NOT NULL, UNIQUE(`context_id`, `execution_id`));
CREATE TABLE `Attribution` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `context_id` INT NOT NULL,
    `artifact_id` INT NOT NULL, UNIQUE(`context_id`, `artifact_id`));
CREATE TABLE `MLMDEnv` (`schema_version` INTEGER PRIMARY KEY);
CREATE INDEX `idx_event_execution_id` ON `Event`(`execution_id`);
CREATE INDEX `idx_eventpath_event_id` ON `EventPath`(`event_id`);
CREATE INDEX `idx_parentcontext_parent_context_id` ON `ParentContext`(`parent_context_id`);
INSERT INTO `MLMDEnv` VALUES (10);
INSERT INTO `Type`(`id`, `name`, `type_kind`) VALUES (1, 'Examples', 1), (2, 'Model', 1), (3, 'Transform', 0),
    (4, 'Trainer', 0), (5, 'pipeline', 2), (6, 'pipeline_run', 2);
)sql";

bool writeStore(const std::string &path, int64_t artifacts, GenStats &s, std::string &error)
{
    std::remove(path.c_str());
    sqlite3 *db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
        error = "cannot create " + path;
        sqlite3_close_v2(db);
        return false;
    }
    sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF", nullptr, nullptr, nullptr);
    char *err = nullptr;
    if (sqlite3_exec(db, kSchema, nullptr, nullptr, &err) != SQLITE_OK) {
        error = err ? err : "schema";
        sqlite3_free(err);
        sqlite3_close_v2(db);
        return false;
    }
    s.rows += 7;
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    const int64_t t0 = 1764576000000;
    const int64_t executions = artifacts / 2;
    Stmt ctx(db,
        "INSERT INTO `Context`(`id`, `type_id`, `name`, `create_time_since_epoch`, "
        "`last_update_time_since_epoch`) VALUES (?, ?, ?, ?, ?)");
    Stmt parent(db, "INSERT INTO `ParentContext` VALUES (?, 1)");
    Stmt art(db,
        "INSERT INTO `Artifact`(`id`, `type_id`, `uri`, `state`, `create_time_since_epoch`, "
        "`last_update_time_since_epoch`) VALUES (?, ?, ?, 2, ?, ?)");
    Stmt artProp(db,
        "INSERT INTO `ArtifactProperty`(`artifact_id`, `name`, `is_custom_property`, `int_value`, "
        "`string_value`) VALUES (?, ?, ?, ?, ?)");
    Stmt exe(db,
        "INSERT INTO `Execution`(`id`, `type_id`, `last_known_state`, `create_time_since_epoch`, "
        "`last_update_time_since_epoch`) VALUES (?, ?, ?, ?, ?)");
    Stmt exeProp(db,
        "INSERT INTO `ExecutionProperty`(`execution_id`, `name`, `is_custom_property`, "
        "`double_value`, `string_value`) VALUES (?, ?, ?, ?, ?)");
    Stmt event(db,
        "INSERT OR IGNORE INTO `Event`(`artifact_id`, `execution_id`, `type`, "
        "`milliseconds_since_epoch`) VALUES (?, ?, ?, ?)");
    Stmt pathKey(db,
        "INSERT INTO `EventPath`(`event_id`, `is_index_step`, `step_key`) VALUES "
        "(last_insert_rowid(), 0, ?)");
    Stmt pathIndex(db,
        "INSERT INTO `EventPath`(`event_id`, `is_index_step`, `step_index`) VALUES "
        "((SELECT max(id) FROM `Event`), 1, ?)");
    Stmt assoc(db, "INSERT INTO `Association`(`context_id`, `execution_id`) VALUES (?, ?)");
    Stmt attrib(db, "INSERT INTO `Attribution`(`context_id`, `artifact_id`) VALUES (?, ?)");

    ctx.bind(1, int64_t(1))
        .bind(2, int64_t(5))
        .bind(3, std::string("bench_pipeline"))
        .bind(4, t0)
        .bind(5, t0)
        .run();
    s.contexts = 1;
    s.rows += 1;
    std::mt19937_64 rng(42);
    int64_t artifactId = 0, runContext = 1;
    for (int64_t e = 1; e <= executions; ++e) {
        const int64_t t = t0 + e * 1000;
        if ((e - 1) % kExecutionsPerRun == 0) {
            ++runContext;
            ctx.bind(1, runContext)
                .bind(2, int64_t(6))
                .bind(3, "run-" + std::to_string(runContext - 1))
                .bind(4, t)
                .bind(5, t)
                .run();
            parent.bind(1, runContext).run();
            s.contexts++, s.rows += 2;
        }
        const bool trainer = e % 2 == 0;
        exe.bind(1, e)
            .bind(2, int64_t(trainer ? 4 : 3))
            .bind(3, int64_t(e % 97 == 0 ? 4 : 3))
            .bind(4, t)
            .bind(5, t + 900)
            .run();
        exeProp.bind(1, e)
            .bind(2, std::string("component_id"))
            .bind(3, int64_t(0))
            .bind(4, 0.0)
            .bind(5, std::string(trainer ? "Trainer" : "Transform"))
            .run();
        exeProp.bind(1, e)
            .bind(2, std::string("learning_rate"))
            .bind(3, int64_t(1))
            .bind(4, 0.001 * double(e % 7))
            .bind(5, std::string())
            .run();
        assoc.bind(1, runContext).bind(2, e).run();
        s.executions++, s.rows += 4;
        // Four inputs among the artifacts written so far (none for the first execution).
        for (int k = 0; k < 4 && artifactId > 0; ++k) {
            const int64_t a = 1 + int64_t(rng() % uint64_t(artifactId));
            if (event.bind(1, a).bind(2, e).bind(3, int64_t(3)).bind(4, t).run() == 0)
                continue;
            pathKey.bind(1, std::string("examples")).run();
            pathIndex.bind(1, int64_t(k)).run();
            s.events++, s.rows += 3;
        }
        for (int k = 0; k < 2; ++k) {
            const int64_t a = ++artifactId;
            art.bind(1, a)
                .bind(2, int64_t(trainer ? 2 : 1))
                .bind(3, "/pipelines/bench/" + std::to_string(e) + "/" + std::to_string(k))
                .bind(4, t + 900)
                .bind(5, t + 900)
                .run();
            artProp.bind(1, a)
                .bind(2, std::string("span"))
                .bind(3, int64_t(0))
                .bind(4, e)
                .bind(5, std::string())
                .run();
            artProp.bind(1, a)
                .bind(2, std::string("file_format"))
                .bind(3, int64_t(1))
                .bind(4, int64_t(0))
                .bind(5, std::string("tfrecords_gzip"))
                .run();
            attrib.bind(1, runContext).bind(2, a).run();
            event.bind(1, a).bind(2, e).bind(3, int64_t(4)).bind(4, t + 900).run();
            pathKey.bind(1, std::string(trainer ? "model" : "transform_graph")).run();
            pathIndex.bind(1, int64_t(k)).run();
            s.artifacts++, s.events++, s.rows += 7;
        }
    }
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close_v2(db); // closes once the statements still alive here are finalised
    s.fileBytes = QFileInfo(QString::fromStdString(path)).size();
    return true;
}

struct Row : ChildImport {
    GenStats gen;
    int64_t records = 0, nodes = 0, edges = 0, wsBytes = 0;
    [[nodiscard]] double rowsPerSec() const { return seconds > 0 ? double(gen.rows) / seconds : 0; }
};

void usage()
{
    std::fprintf(stderr,
        "usage: bench_import_mlmd [--artifacts 100000,300000] [--keep DIR]\n"
        "       bench_import_mlmd [--artifacts N] --output FILE\n"
        "Generates synthetic ML Metadata stores (not timed; N artifacts, N/2 executions, ~3N events)\n"
        "and imports each into a fresh workspace in a child process; prints wall seconds and peak RSS.\n"
        "--output: only write the store of the first size to FILE (the kill tests' input).\n");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() == 4 && args[1] == QStringLiteral("--import-only")) {
        ImportOnlyHooks hooks;
        hooks.addFields = [](QJsonObject &o, const plumb::FileImportResult &r) {
            o[QStringLiteral("format")] = r.format;
        };
        return importOnly(args[2], args[3], hooks);
    }

    std::vector<int64_t> sizes { 100'000 };
    QString keep, output;
    for (int i = 1; i < args.size(); ++i) {
        const QString &a = args[i];
        const bool hasNext = i + 1 < args.size();
        if (a == QStringLiteral("--artifacts") && hasNext) {
            sizes = parseSizes(args[++i]);
        } else if (a == QStringLiteral("--keep") && hasNext) {
            keep = args[++i];
        } else if (a == QStringLiteral("--output") && hasNext) {
            output = args[++i];
        } else if (a == QStringLiteral("-h") || a == QStringLiteral("--help")) {
            usage();
            return 0;
        } else {
            std::fprintf(stderr, "bench_import_mlmd: unknown argument %s\n", qPrintable(a));
            usage();
            return 2;
        }
    }
    if (sizes.empty()) {
        usage();
        return 2;
    }
    if (!output.isEmpty()) {
        GenStats gen;
        std::string error;
        if (!writeStore(output.toStdString(), sizes.front(), gen, error)) {
            std::fprintf(stderr, "bench_import_mlmd: %s\n", error.c_str());
            return 1;
        }
        std::printf("%lld artifacts, %lld executions, %lld events (%.1f MB) in %s\n",
            static_cast<long long>(gen.artifacts), static_cast<long long>(gen.executions),
            static_cast<long long>(gen.events), double(gen.fileBytes) / 1e6, qPrintable(output));
        return 0;
    }
    QTemporaryDir tmp;
    const QString dir = workFolder("bench_import_mlmd", keep, tmp);
    if (dir.isEmpty())
        return 1;

    std::vector<Row> rows;
    for (const int64_t n : sizes) {
        Row row;
        const QString stem = QDir(dir).filePath(QStringLiteral("mlmd_%1").arg(n));
        const QString file = stem + QStringLiteral(".sqlite");
        const QString ws = stem + QStringLiteral(".plumb");
        removeWorkspace(ws);
        std::fprintf(stderr, "generating %s ...\n", qPrintable(file));
        std::string error;
        if (!writeStore(file.toStdString(), n, row.gen, error)) {
            std::fprintf(stderr, "bench_import_mlmd: %s\n", error.c_str());
            return 1;
        }
        std::fprintf(stderr, "importing %lld artifacts, %lld executions, %lld events (%.1f MB) ...\n",
            static_cast<long long>(row.gen.artifacts), static_cast<long long>(row.gen.executions),
            static_cast<long long>(row.gen.events), double(row.gen.fileBytes) / 1e6);
        if (!runImportChild("bench_import_mlmd", file, ws, &row))
            return 1;
        {
            const CheckpointedWorkspace db(ws);
            if (db.isOpen()) {
                row.records = db.count("SELECT event_count FROM source");
                row.nodes = db.count("SELECT count(*) FROM lineage_node");
                row.edges = db.count("SELECT count(*) FROM lineage_edge");
            }
        }
        row.wsBytes = workspaceBytes(ws);
        rows.push_back(row);
        if (keep.isEmpty()) {
            QFile::remove(file);
            QFile::remove(ws);
        }
    }

    std::printf("\nML Metadata store import benchmark\n");
    std::printf("%-10s %10s %8s %9s %8s %11s %8s %9s %9s %9s  %s\n", "artifacts", "executions", "events",
        "file MB", "wall s", "rows/s", "RSS MB", "ws MB", "nodes", "edges", "status");
    for (const Row &r : rows) {
        std::printf("%-10lld %10lld %8lld %9.1f %8.2f %11.0f %8.1f %9.1f %9lld %9lld  %s %s\n",
            static_cast<long long>(r.gen.artifacts), static_cast<long long>(r.gen.executions),
            static_cast<long long>(r.gen.events), double(r.gen.fileBytes) / 1e6, r.seconds, r.rowsPerSec(),
            r.rssMB, double(r.wsBytes) / 1e6, static_cast<long long>(r.nodes),
            static_cast<long long>(r.edges), qPrintable(r.status), qPrintable(r.format));
        if (!r.imported && !r.message.isEmpty())
            std::printf("           %s\n", qPrintable(r.message));
    }
    std::printf("\n");
    for (const Row &r : rows) {
        QJsonObject j;
        j[QStringLiteral("benchmark")] = QStringLiteral("import_mlmd");
        j[QStringLiteral("artifacts")] = double(r.gen.artifacts);
        j[QStringLiteral("executions")] = double(r.gen.executions);
        j[QStringLiteral("events")] = double(r.gen.events);
        j[QStringLiteral("store_rows")] = double(r.gen.rows);
        j[QStringLiteral("file_bytes")] = double(r.gen.fileBytes);
        j[QStringLiteral("status")] = r.status;
        j[QStringLiteral("seconds")] = r.seconds;
        j[QStringLiteral("rows_per_s")] = r.rowsPerSec();
        j[QStringLiteral("peak_rss_mb")] = r.rssMB;
        j[QStringLiteral("workspace_bytes")] = double(r.wsBytes);
        j[QStringLiteral("records")] = double(r.records);
        j[QStringLiteral("nodes")] = double(r.nodes);
        j[QStringLiteral("edges")] = double(r.edges);
        std::printf("%s\n", QJsonDocument(j).toJson(QJsonDocument::Compact).constData());
    }
    return 0;
}
