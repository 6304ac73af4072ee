// SPDX-License-Identifier: GPL-3.0-or-later
#include "mlmd/mlmdimporter.h"

#include "mlmd/protostruct.h"

#include "ingest/diagnosticlog.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "ingest/lineagesink.h"
#include "store/foreignsqlitedb.h"
#include "text/jsontext.h"
#include "text/textnumbers.h"

#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace plumb {

namespace {

constexpr int64_t kNsPerMs = 1000000;
constexpr int64_t kCheckpointRows = 1 << 14;
constexpr int kCurrentSchema = 10; // the newest MLMDEnv.schema_version this importer was written against
constexpr std::string_view kSqliteMagic("SQLite format 3\0", 16);
constexpr std::string_view kStructPrefix = "mlmd-struct::"; // how MLMD stores a struct value in string_value

// The enums of ml_metadata/proto/metadata_store.proto, by number.
constexpr const char *kArtifactStates[]
    = { "UNKNOWN", "PENDING", "LIVE", "MARKED_FOR_DELETION", "DELETED", "ABANDONED", "REFERENCE" };
constexpr const char *kExecutionStates[]
    = { "UNKNOWN", "NEW", "RUNNING", "COMPLETE", "FAILED", "CACHED", "CANCELED" };
constexpr const char *kEventTypes[] = { "UNKNOWN", "DECLARED_OUTPUT", "DECLARED_INPUT", "INPUT", "OUTPUT",
    "INTERNAL_INPUT", "INTERNAL_OUTPUT", "PENDING_OUTPUT" };

template <size_t N> QString enumName(const char *const (&names)[N], int64_t value)
{
    if (value >= 0 && size_t(value) < N)
        return QLatin1String(names[value]);
    return QString::number(value);
}

enum class Flow { None, Input, Output };

Flow flowOf(int64_t eventType)
{
    switch (eventType) {
    case 2: // DECLARED_INPUT
    case 3: // INPUT
    case 5: // INTERNAL_INPUT
        return Flow::Input;
    case 1: // DECLARED_OUTPUT
    case 4: // OUTPUT
    case 6: // INTERNAL_OUTPUT
    case 7: // PENDING_OUTPUT
        return Flow::Output;
    default:
        return Flow::None;
    }
}

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(
        out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

void appendBase64(std::string &out, std::string_view bytes)
{
    const QByteArray b64 = QByteArray::fromRawData(bytes.data(), qsizetype(bytes.size())).toBase64();
    out.push_back('"');
    out.append(b64.constData(), size_t(b64.size()));
    out.push_back('"');
}

// What one kind of node is read from.
struct NodeTable {
    LineageNode::Kind kind;
    const char *table; // Artifact, Execution, Context
    const char *propertyTable; // ArtifactProperty...
    const char *idColumn; // of the property table: artifact_id...
    const char *stateColumn; // state, last_known_state, or nullptr
    const char *path; // in node keys: "artifact"
};

constexpr NodeTable kArtifacts { LineageNode::Kind::Artifact, "Artifact", "ArtifactProperty", "artifact_id",
    "state", "artifact" };
constexpr NodeTable kExecutions { LineageNode::Kind::Execution, "Execution", "ExecutionProperty",
    "execution_id", "last_known_state", "execution" };
constexpr NodeTable kContexts { LineageNode::Kind::Context, "Context", "ContextProperty", "context_id",
    nullptr, "context" };

class StoreReader {
public:
    explicit StoreReader(ImportContext &ctx)
        : m_ctx(ctx)
        , m_diag(ctx.diagnostics())
        , m_db(ctx.input().path())
        , m_sink(ctx.lineageSink())
        , m_keyPrefix(
              QStringLiteral("mlmd:") + QFileInfo(ctx.input().path()).absoluteFilePath() + QLatin1Char('#'))
    {
        noteWriteAheadLog(m_db, m_diag);
    }

    void read()
    {
        discover();
        types();
        nodes(kArtifacts, m_artifacts);
        nodes(kExecutions, m_executions);
        if (hasTable("Context"))
            nodes(kContexts, m_contexts);
        events();
        if (hasTable("Attribution"))
            contains("Attribution", "artifact_id", m_artifacts);
        if (hasTable("Association"))
            contains("Association", "execution_id", m_executions);
        if (hasTable("ParentContext"))
            parents();
        reportMissingColumns();
        m_ctx.recordsRead = m_records;
    }

private:
    // --- schema discovery --------------------------------------------------------------------

    bool hasTable(std::string_view table) const { return m_columns.count(lower(table)) != 0; }

    bool has(std::string_view table, std::string_view column) const
    {
        const auto it = m_columns.find(lower(table));
        return it != m_columns.end()
            && std::find(it->second.begin(), it->second.end(), lower(column)) != it->second.end();
    }

    // `column` when the table has it, else NULL: optional columns read the same in every version.
    std::string opt(std::string_view table, std::string_view column)
    {
        if (has(table, column))
            return quoteIdentifier(column);
        m_missing.insert(std::string(table) + '.' + std::string(column));
        return "NULL";
    }

    std::string table(std::string_view name) const { return quoteIdentifier(m_tables.at(lower(name))); }

    void discover()
    {
        for (const std::string &t : m_db.tables()) {
            std::vector<std::string> cols;
            for (const std::string &c : m_db.columns(t))
                cols.push_back(lower(c));
            m_tables[lower(t)] = t;
            m_columns[lower(t)] = std::move(cols);
        }
        static const std::pair<const char *, std::vector<const char *>> required[] = {
            { "MLMDEnv", { "schema_version" } },
            { "Type", { "id", "name", "type_kind" } },
            { "Artifact", { "id", "type_id" } },
            { "Execution", { "id", "type_id" } },
            { "Event", { "artifact_id", "execution_id", "type" } },
        };
        QStringList missing;
        int tablesFound = 0;
        for (const auto &[t, columns] : required) {
            if (!hasTable(t)) {
                missing << QStringLiteral("table %1").arg(QLatin1String(t));
                continue;
            }
            ++tablesFound;
            for (const char *c : columns)
                if (!has(t, c))
                    missing << QStringLiteral("column %1.%2").arg(QLatin1String(t), QLatin1String(c));
        }
        const QString file = m_ctx.input().fileName();
        if (tablesFound < 3)
            throw ImportError(
                QStringLiteral("%1 is an SQLite database but not an ML Metadata store (it lacks %2); "
                               "nothing was imported")
                    .arg(file, missing.join(QStringLiteral(", "))));
        if (!hasTable("MLMDEnv")) {
            // ML Metadata 0.13 kept no schema version: its Type table predates contexts.
            throw ImportError(
                QStringLiteral("%1 looks like an ML Metadata store but lacks %2; stores of ML Metadata "
                               "0.13 and older are not supported (open the store once with a newer "
                               "ML Metadata to upgrade it); nothing was imported")
                    .arg(file, missing.join(QStringLiteral(", "))));
        }
        int64_t version = -1;
        {
            ForeignSqliteDb::Stmt st(m_db, "SELECT max(schema_version) FROM " + table("MLMDEnv"), "MLMDEnv");
            if (st.step() && !st.isNull(0))
                version = st.integer(0);
            ++m_records;
        }
        if (!missing.isEmpty()) {
            QString why = has("Type", "is_artifact_type")
                ? QStringLiteral(
                    " (schema versions before 2, ML Metadata 0.14 and older, had no context types: open "
                    "the store once with a newer ML Metadata to upgrade it)")
                : QString();
            throw ImportError(
                QStringLiteral("%1 is an ML Metadata store (schema version %2) that cannot be read: it "
                               "lacks %3%4; nothing was imported")
                    .arg(file, version < 0 ? QStringLiteral("unknown") : QString::number(version),
                        missing.join(QStringLiteral(", ")), why));
        }
        m_version = version;
        if (version > kCurrentSchema)
            m_diag.report(Severity::Info, QStringLiteral("newer-schema"), QStringLiteral("table MLMDEnv"),
                QStringLiteral("The store has schema version %1, newer than the %2 this importer knows; it "
                               "was read by column names and new fields were left out.")
                    .arg(version)
                    .arg(kCurrentSchema));
    }

    void reportMissingColumns()
    {
        if (m_missing.empty())
            return;
        QStringList cols;
        for (const std::string &c : m_missing)
            cols << qs(c);
        m_diag.report(Severity::Info, QStringLiteral("older-schema"), QStringLiteral("table MLMDEnv"),
            QStringLiteral("The store has schema version %1 and lacks %2; those fields were left out.")
                .arg(m_version < 0 ? QStringLiteral("unknown") : QString::number(m_version),
                    cols.join(QStringLiteral(", "))));
    }

    void tick()
    {
        if (++m_records % kCheckpointRows == 0)
            m_ctx.checkpoint();
    }

    // --- rows -----------------------------------------------------------------------------------

    void types()
    {
        ForeignSqliteDb::Stmt st(m_db, "SELECT id, name FROM " + table("Type"), "Type");
        while (st.step()) {
            m_typeNames[st.integer(0)] = qs(st.text(1));
            tick();
        }
    }

    QString typeName(int64_t typeId)
    {
        const auto it = m_typeNames.find(typeId);
        if (it != m_typeNames.end())
            return it->second;
        if (!m_diag.bump(QStringLiteral("unknown-type")))
            m_diag.report(Severity::Warning, QStringLiteral("unknown-type"), QStringLiteral("table Type"),
                QStringLiteral("A row names a type_id that is not in the Type table; its type is shown as "
                               "\"type <id>\"."));
        return QStringLiteral("type %1").arg(typeId);
    }

    // One property row as `"name":value` after the others of its object.
    static void appendProperty(std::string &obj, const ForeignSqliteDb::Stmt &p)
    {
        if (!obj.empty())
            obj.push_back(',');
        appendJsonString(obj, p.text(1));
        obj.push_back(':');
        if (!p.isNull(3)) {
            obj += std::to_string(p.integer(3));
        } else if (!p.isNull(4)) {
            ProtoStruct::appendDouble(obj, p.real(4));
        } else if (!p.isNull(5)) {
            const std::string_view s = p.text(5);
            if (s.substr(0, kStructPrefix.size()) == kStructPrefix) {
                // A struct value: base64 of a serialized google.protobuf.Struct, shown as the object.
                const std::string_view b64 = s.substr(kStructPrefix.size());
                const QByteArray serialized
                    = QByteArray::fromBase64(QByteArray::fromRawData(b64.data(), qsizetype(b64.size())));
                if (const auto json = ProtoStruct::toJson(
                        std::string_view(serialized.constData(), size_t(serialized.size())))) {
                    obj += *json;
                } else {
                    obj += "{\"struct_base64\":";
                    appendJsonString(obj, b64);
                    obj.push_back('}');
                }
            } else {
                appendJsonString(obj, s);
            }
        } else if (!p.isNull(8)) {
            obj += p.integer(8) != 0 ? "true" : "false";
        } else if (!p.isNull(6)) {
            obj += "{\"bytes_base64\":";
            appendBase64(obj, p.text(6));
            obj.push_back('}');
        } else if (!p.isNull(7)) {
            const std::string_view bytes = p.text(7);
            obj += "{\"proto_type\":";
            appendJsonString(obj, ProtoStruct::anyTypeUrl(bytes));
            obj += ",\"proto_base64\":";
            appendBase64(obj, bytes);
            obj.push_back('}');
        } else {
            obj += "null";
        }
    }

    void nodes(const NodeTable &t, std::unordered_map<int64_t, int64_t> &ids)
    {
        const bool artifact = t.kind == LineageNode::Kind::Artifact;
        ForeignSqliteDb::Stmt st(m_db,
            "SELECT id, type_id, " + (artifact ? opt(t.table, "uri") : std::string("NULL")) + ", "
                + (t.stateColumn ? opt(t.table, t.stateColumn) : std::string("NULL")) + ", "
                + opt(t.table, "name") + ", " + opt(t.table, "external_id") + ", "
                + opt(t.table, "create_time_since_epoch") + ", "
                + opt(t.table, "last_update_time_since_epoch") + " FROM " + table(t.table) + " ORDER BY id",
            t.table);
        // Properties are walked beside the rows, both in id order.
        std::unique_ptr<ForeignSqliteDb::Stmt> props;
        bool propRow = false;
        if (has(t.propertyTable, t.idColumn) && has(t.propertyTable, "name")
            && has(t.propertyTable, "is_custom_property")) {
            const char *pt = t.propertyTable;
            props = std::make_unique<ForeignSqliteDb::Stmt>(m_db,
                "SELECT " + quoteIdentifier(t.idColumn) + ", name, is_custom_property, "
                    + opt(pt, "int_value") + ", " + opt(pt, "double_value") + ", " + opt(pt, "string_value")
                    + ", " + opt(pt, "byte_value") + ", " + opt(pt, "proto_value") + ", "
                    + opt(pt, "bool_value") + " FROM " + table(pt) + " ORDER BY "
                    + quoteIdentifier(t.idColumn) + ", is_custom_property, name",
                pt);
            propRow = props->step();
        }
        int64_t orphans = 0;
        const QString path = QLatin1String(t.path) + QLatin1Char('/');
        std::string json, properties, custom;
        while (st.step()) {
            tick();
            const int64_t id = st.integer(0);
            LineageNode n;
            n.kind = t.kind;
            n.key = m_keyPrefix + path + QString::number(id);
            n.type = typeName(st.integer(1));
            n.uri = qs(st.text(2));
            if (!st.isNull(3))
                n.state = artifact ? enumName(kArtifactStates, st.integer(3))
                                   : enumName(kExecutionStates, st.integer(3));
            n.name = qs(st.text(4));
            if (n.name.isEmpty())
                n.name = n.type + QLatin1Char(' ') + QString::number(id);
            n.startNs = scaledNs(st.integer(6), kNsPerMs).value_or(0); // 0: not said (as an unset time reads)
            n.endNs = scaledNs(st.integer(7), kNsPerMs).value_or(0);

            properties.clear();
            custom.clear();
            while (propRow && props->integer(0) < id) {
                ++orphans;
                tick();
                propRow = props->step();
            }
            while (propRow && props->integer(0) == id) {
                appendProperty(props->integer(2) != 0 ? custom : properties, *props);
                tick();
                propRow = props->step();
            }
            json = "{\"mlmd_id\":" + std::to_string(id);
            if (!st.isNull(5)) {
                json += ",\"external_id\":";
                appendJsonString(json, st.text(5));
            }
            if (!properties.empty())
                json += ",\"properties\":{" + properties + '}';
            if (!custom.empty())
                json += ",\"custom_properties\":{" + custom + '}';
            json.push_back('}');
            n.properties = QByteArray(json.data(), qsizetype(json.size()));
            ids[id] = m_sink.node(n);
        }
        while (propRow) {
            ++orphans;
            tick();
            propRow = props->step();
        }
        if (orphans > 0)
            m_diag.skipped(QStringLiteral("orphan-property"),
                QStringLiteral("table %1").arg(QLatin1String(t.propertyTable)),
                QStringLiteral("Property rows name a %1 id that is not in the %1 table; they were skipped.")
                    .arg(QLatin1String(t.table)),
                orphans);
    }

    void dangling(const char *tableName, const QString &what)
    {
        if (!m_diag.bump(QStringLiteral("dangling-reference")))
            m_diag.skipped(QStringLiteral("dangling-reference"),
                QStringLiteral("table %1").arg(QLatin1String(tableName)),
                QStringLiteral("A row names %1 that is not in the store; it was skipped.").arg(what));
    }

    void events()
    {
        ForeignSqliteDb::Stmt st(m_db,
            "SELECT id, artifact_id, execution_id, type, " + opt("Event", "milliseconds_since_epoch")
                + " FROM " + table("Event") + " ORDER BY id",
            "Event");
        std::unique_ptr<ForeignSqliteDb::Stmt> paths;
        bool pathRow = false;
        if (has("EventPath", "event_id") && has("EventPath", "is_index_step")) {
            paths = std::make_unique<ForeignSqliteDb::Stmt>(m_db,
                "SELECT event_id, is_index_step, " + opt("EventPath", "step_index") + ", "
                    + opt("EventPath", "step_key") + " FROM " + table("EventPath")
                    + " ORDER BY event_id, rowid",
                "EventPath");
            pathRow = paths->step();
        }
        int64_t unknown = 0;
        std::string props, steps;
        while (st.step()) {
            tick();
            const int64_t id = st.integer(0);
            steps.clear();
            while (pathRow && paths->integer(0) < id) {
                tick();
                pathRow = paths->step();
            }
            while (pathRow && paths->integer(0) == id) {
                if (!steps.empty())
                    steps.push_back(',');
                if (paths->integer(1) != 0)
                    steps += std::to_string(paths->integer(2));
                else
                    appendJsonString(steps, paths->text(3));
                tick();
                pathRow = paths->step();
            }
            const int64_t type = st.integer(3);
            const Flow flow = flowOf(type);
            if (flow == Flow::None) {
                ++unknown;
                continue;
            }
            const auto a = m_artifacts.find(st.integer(1));
            const auto e = m_executions.find(st.integer(2));
            if (a == m_artifacts.end() || e == m_executions.end()) {
                dangling("Event",
                    a == m_artifacts.end() ? QStringLiteral("an artifact") : QStringLiteral("an execution"));
                continue;
            }
            props = "{\"event_type\":\"";
            props += kEventTypes[type];
            props += "\",\"path\":[" + steps + ']';
            if (const auto ns = scaledNs(st.integer(4), kNsPerMs); !st.isNull(4) && st.integer(4) > 0 && ns)
                props += ",\"time_ns\":" + std::to_string(*ns);
            props.push_back('}');
            const QByteArray json(props.data(), qsizetype(props.size()));
            if (flow == Flow::Input)
                m_sink.edge(a->second, e->second, QStringLiteral("input"), json);
            else
                m_sink.edge(e->second, a->second, QStringLiteral("output"), json);
        }
        if (unknown > 0)
            m_diag.skipped(QStringLiteral("unknown-event-type"), QStringLiteral("table Event"),
                QStringLiteral("Events of type UNKNOWN (or a number ML Metadata does not define) say "
                               "neither input nor output; they were skipped."),
                unknown);
    }

    // Attribution or Association rows: the context contains the artifact or execution.
    void contains(
        const char *tableName, const char *memberColumn, const std::unordered_map<int64_t, int64_t> &members)
    {
        if (!has(tableName, "context_id") || !has(tableName, memberColumn))
            return;
        ForeignSqliteDb::Stmt st(m_db,
            std::string("SELECT context_id, ") + memberColumn + " FROM " + table(tableName)
                + " ORDER BY context_id, " + memberColumn,
            tableName);
        while (st.step()) {
            tick();
            const auto c = m_contexts.find(st.integer(0));
            const auto m = members.find(st.integer(1));
            if (c == m_contexts.end() || m == members.end()) {
                dangling(tableName,
                    c == m_contexts.end() ? QStringLiteral("a context") : QStringLiteral("a member"));
                continue;
            }
            m_sink.edge(c->second, m->second, QStringLiteral("contains"));
        }
    }

    void parents()
    {
        if (!has("ParentContext", "context_id") || !has("ParentContext", "parent_context_id"))
            return;
        ForeignSqliteDb::Stmt st(m_db,
            "SELECT parent_context_id, context_id FROM " + table("ParentContext")
                + " ORDER BY parent_context_id, context_id",
            "ParentContext");
        while (st.step()) {
            tick();
            const auto parent = m_contexts.find(st.integer(0));
            const auto child = m_contexts.find(st.integer(1));
            if (parent == m_contexts.end() || child == m_contexts.end()) {
                dangling("ParentContext", QStringLiteral("a context"));
                continue;
            }
            m_sink.edge(parent->second, child->second, QStringLiteral("parent"));
        }
    }

    ImportContext &m_ctx;
    DiagnosticLog &m_diag;
    ForeignSqliteDb m_db;
    LineageSink &m_sink;
    const QString m_keyPrefix;
    std::map<std::string, std::string> m_tables; // lower-case name -> name in the store
    std::map<std::string, std::vector<std::string>> m_columns; // lower-case name -> lower-case columns
    std::set<std::string> m_missing; // optional "Table.column"s the store lacks
    int64_t m_version = -1;
    std::unordered_map<int64_t, QString> m_typeNames;
    std::unordered_map<int64_t, int64_t> m_artifacts, m_executions, m_contexts; // MLMD id -> lineage node id
    int64_t m_records = 0;
};

} // namespace

int MlmdImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    const std::string_view h(head.data(), size_t(head.size()));
    if (h.substr(0, kSqliteMagic.size()) != kSqliteMagic)
        return 0;
    // ML Metadata creates 15 tables and ~30 indexes at once, so sqlite_master outgrows page 1 and
    // its text usually lies past the head; what the head does hold is sqlite_sequence, which names
    // the AUTOINCREMENT tables once they have rows. Either set of names is ML Metadata's.
    const auto count = [h](std::initializer_list<std::string_view> markers) {
        int found = 0;
        for (const std::string_view m : markers)
            found += h.find(m) != std::string_view::npos;
        return found;
    };
    if (count({ "MLMDEnv", "ParentContext", "last_known_state", "is_custom_property",
            "milliseconds_since_epoch" })
        >= 3)
        return 95;
    if (count({ "Attribution", "Association", "Execution", "Artifact" }) == 4)
        return 90;
    // Named like a TFX or Kubeflow store: read() says clearly what it lacks.
    const QString name = fileName.toLower();
    return name.contains(QLatin1String("mlmd")) || name.startsWith(QLatin1String("metadata.sqlite")) ? 20 : 0;
}

void MlmdImporter::read(ImportContext &ctx) const
{
    if (ctx.input().isGzip())
        throw ImportError(QStringLiteral("%1 is a compressed SQLite file: decompress it first (gunzip)")
                              .arg(ctx.input().fileName()));
    StoreReader reader(ctx);
    reader.read();
}

QStringList MlmdImporter::companionFiles(const QString &path) const
{
    return writeAheadLogOf(path);
}

QString MlmdImporter::companionOwner(const QString &path) const
{
    return storeOfWriteAheadLog(path);
}

} // namespace plumb
