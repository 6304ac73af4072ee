// SPDX-License-Identifier: GPL-3.0-or-later
#include "lifecycle/lifecycleimporter.h"

#include "common/jsonsniff.h"

#include "analysis/goodput.h"
#include "ingest/diagnosticlog.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "ingest/metricsink.h"
#include "store/sqlitedb.h"
#include "tabular/tabularlayout.h"

#include <QFileInfo>

#include <simdjson.h>

#include <deque>
#include <map>
#include <string>
#include <unordered_map>

namespace plumb {

namespace {

namespace od = simdjson::ondemand;

constexpr int64_t kChunkBytes = 256 * 1024;
constexpr int64_t kCheckpointLines = 4096;
constexpr int64_t kInstant = INT64_MIN; // the end of an event that has none

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// The members of one line that matter here: strings and numbers, numbers as their text.
struct Entry {
    std::vector<std::pair<std::string, std::string>> fields;
    [[nodiscard]] const std::string *get(std::string_view key) const
    {
        for (const auto &[k, v] : fields)
            if (k == key)
                return &v;
        return nullptr;
    }
    [[nodiscard]] bool has(std::string_view key) const { return get(key) != nullptr; }
};

// POSIX seconds (number or numeric text, exactly: no double on the way) or ISO-8601.
std::optional<int64_t> timeNs(const std::string &text)
{
    if (auto ns = tabular::parseWallNs(text, TimeUnit::Seconds))
        return ns;
    return tabular::parseIso8601(text);
}

// ml-goodput-measurement's phase keys: <prefix>_start_time / <prefix>_end_time.
struct PhaseKeys {
    const char *start;
    const char *end;
    LifecycleKind kind;
};
constexpr PhaseKeys kLibraryPhases[] = {
    { "tpu_init_start_time", "tpu_init_end_time", LifecycleKind::AcceleratorInit },
    { "training_prep_start_time", "training_prep_end_time", LifecycleKind::TrainingPrep },
    { "data_loading_start_time", "data_loading_end_time", LifecycleKind::DataLoading },
    { "custom_badput_event_start_time", "custom_badput_event_end_time", LifecycleKind::Custom },
};

class Reader {
public:
    explicit Reader(ImportContext &ctx)
        : m_ctx(ctx)
        , m_diag(ctx.diagnostics())
        , m_file(ctx.input().fileName())
        , m_insert(ctx.db(),
              "INSERT INTO lifecycle_event(run_id, source_id, kind, start_ns, end_ns, step, label, line) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    {
    }

    void run()
    {
        InputFile &in = m_ctx.input();
        std::string buf, line;
        size_t pos = 0;
        bool eof = false;
        int64_t lineNo = 0;
        for (;;) {
            size_t end = buf.find('\n', pos);
            if (end == std::string::npos && !eof) {
                buf.erase(0, pos);
                pos = 0;
                const size_t old = buf.size();
                buf.resize(old + size_t(kChunkBytes));
                const int64_t got = in.read(buf.data() + old, kChunkBytes);
                buf.resize(old + size_t(std::max<int64_t>(got, 0)));
                eof = got <= 0;
                continue;
            }
            if (pos >= buf.size() && eof)
                break;
            if (end == std::string::npos)
                end = buf.size();
            ++lineNo;
            const std::string_view text = tabular::trimmed(std::string_view(buf).substr(pos, end - pos));
            pos = end + 1;
            if (text.empty())
                continue;
            ++m_ctx.recordsRead;
            if (lineNo % kCheckpointLines == 0)
                m_ctx.checkpoint();
            // A member Plumb does not read may hold Python's bare NaN or Infinity (a logged loss).
            if (!tabular::quoteNonFiniteWords(text, line))
                line.assign(text);
            const size_t length = line.size();
            line.resize(length + simdjson::SIMDJSON_PADDING);
            Entry entry;
            std::string error;
            if (!parse(simdjson::padded_string_view(line.data(), length, line.size()), entry, error)) {
                m_diag.skipped(QStringLiteral("bad-json"), QStringLiteral("line %1").arg(lineNo),
                    QStringLiteral("Line %1 is not a JSON object (%2); it was skipped.")
                        .arg(lineNo)
                        .arg(qs(error)));
                continue;
            }
            interpret(entry, lineNo);
        }
        for (const auto &[key, opens] : m_open) {
            for (const Open &o : opens)
                m_diag.skipped(QStringLiteral("unclosed-phase"), QStringLiteral("line %1").arg(o.line),
                    QStringLiteral("A %1 that starts on line %2 never ends in the log; it was left out.")
                        .arg(lifecycleKindName(key.first), QString::number(o.line)));
        }
        if (m_written == 0)
            throw ImportError(
                QStringLiteral("%1 holds no job lifecycle entry (job_start_time, step_start_time, "
                               "{\"event\": ...}); nothing was imported")
                    .arg(m_file));
    }

private:
    struct Open {
        int64_t startNs;
        int64_t step;
        int64_t line;
        int64_t run;
    };
    using OpenKey = std::pair<LifecycleKind, QString>;

    bool parse(simdjson::padded_string_view text, Entry &entry, std::string &error)
    {
        od::document doc;
        od::object obj;
        if (auto e = m_parser.iterate(text).get(doc); e) {
            error = simdjson::error_message(e);
            return false;
        }
        if (auto e = doc.get_object().get(obj); e) {
            error = simdjson::error_message(e);
            return false;
        }
        for (auto field : obj) {
            std::string_view key;
            if (auto e = field.unescaped_key().get(key); e) {
                error = simdjson::error_message(e);
                return false;
            }
            od::value v = field.value();
            od::json_type type;
            if (auto e = v.type().get(type); e) {
                error = simdjson::error_message(e);
                return false;
            }
            if (type == od::json_type::string) {
                std::string_view s;
                if (v.get_string().get(s) == simdjson::SUCCESS)
                    entry.fields.emplace_back(std::string(key), std::string(s));
            } else if (type == od::json_type::number) {
                entry.fields.emplace_back(
                    std::string(key), std::string(tabular::trimmed(v.raw_json_token())));
            } // other values are passed over by the iteration
        }
        return true;
    }

    // The run of the entry's job: one of that name if the workspace has it, else a new one.
    int64_t runOf(const Entry &e)
    {
        const std::string *job = e.get("job_name");
        if (!job)
            job = e.get("job");
        const QString name = job && !job->empty() ? qs(*job) : QFileInfo(m_file).completeBaseName();
        auto it = m_runs.find(name);
        if (it != m_runs.end())
            return it->second;
        QString key = QStringLiteral("lifecycle:") + name;
        {
            SqliteStmt find(m_ctx.db(), "SELECT key FROM run WHERE name = ? ORDER BY id LIMIT 1");
            find.bind(1, name);
            if (find.step())
                key = find.columnText(0);
        }
        const int64_t id = m_ctx.metricSink().openRun(key, name, m_ctx.input().path());
        m_runs.emplace(name, id);
        return id;
    }

    // endNs: kInstant for an instant.
    void write(int64_t run, LifecycleKind kind, int64_t startNs, int64_t endNs, int64_t step,
        const QString &label, int64_t line)
    {
        m_insert.bind(1, run).bind(2, m_ctx.sourceId()).bind(3, lifecycleKindName(kind)).bind(4, startNs);
        if (endNs != kInstant)
            m_insert.bind(5, endNs);
        else
            m_insert.bindNull(5);
        if (step >= 0)
            m_insert.bind(6, step);
        else
            m_insert.bindNull(6);
        if (label.isEmpty())
            m_insert.bindNull(7);
        else
            m_insert.bind(7, label);
        m_insert.bind(8, line).run();
        ++m_written;
        m_used = true;
    }

    void open(
        int64_t run, LifecycleKind kind, const QString &label, int64_t startNs, int64_t step, int64_t line)
    {
        m_open[{ kind, label }].push_back({ startNs, step, line, run });
        m_used = true;
    }

    void close(LifecycleKind kind, const QString &label, int64_t endNs, int64_t step, int64_t line)
    {
        auto it = m_open.find({ kind, label });
        if (it == m_open.end() || it->second.empty()) {
            m_diag.skipped(QStringLiteral("unmatched-end"), QStringLiteral("line %1").arg(line),
                QStringLiteral("Line %1 ends a %2 that never started; it was skipped.")
                    .arg(QString::number(line), lifecycleKindName(kind)));
            return;
        }
        const Open o = it->second.front();
        it->second.pop_front();
        if (endNs < o.startNs) {
            m_diag.skipped(QStringLiteral("phase-ends-before-start"), QStringLiteral("line %1").arg(line),
                QStringLiteral("The %1 ending on line %2 ends before it starts (line %3); it was left out.")
                    .arg(lifecycleKindName(kind), QString::number(line), QString::number(o.line)));
            return;
        }
        write(o.run, kind, o.startNs, endNs, step >= 0 ? step : o.step, label, o.line);
    }

    int64_t stepOf(const Entry &e, const char *key = "step")
    {
        const std::string *s = e.get(key);
        if (!s)
            return -1;
        const std::optional<int64_t> v = tabular::parseInteger(*s);
        return v && *v >= 0 ? *v : -1;
    }

    void noTime(int64_t line, const char *key)
    {
        m_diag.skipped(QStringLiteral("bad-time"), QStringLiteral("line %1").arg(line),
            QStringLiteral("Line %1: \"%2\" is no time (POSIX seconds or ISO-8601); the entry was skipped.")
                .arg(line)
                .arg(QLatin1String(key)));
    }

    // The time under `key`: nullopt when absent (times were checked by badTime()).
    static std::optional<int64_t> timeOf(const Entry &e, const char *key)
    {
        const std::string *v = e.get(key);
        return v ? timeNs(*v) : std::nullopt;
    }

    // True (and a diagnostic) when a member that holds a time is no time: the entry is skipped.
    bool badTime(const Entry &e, int64_t line)
    {
        for (const auto &[key, value] : e.fields) {
            const std::string_view k = key;
            const bool isTime = k == "time" || k == "start_time" || k == "end_time" || k == "duration_s"
                || k.ends_with("_time") || k.ends_with("_duration_secs");
            if (isTime && !timeNs(value)) {
                noTime(line, key.c_str());
                return true;
            }
        }
        return false;
    }

    void interpret(const Entry &e, int64_t line)
    {
        if (badTime(e, line))
            return;
        const int64_t skippedBefore = m_diag.skippedRecords();
        m_used = false;
        if (e.has("event"))
            plumbEvent(e, line);
        else
            libraryEntry(e, line);
        if (!m_used && m_diag.skippedRecords() == skippedBefore)
            m_diag.skipped(QStringLiteral("unknown-entry"), QStringLiteral("line %1").arg(line),
                QStringLiteral("Line %1 is no lifecycle entry this reader knows; it was skipped.").arg(line));
    }

    void libraryEntry(const Entry &e, int64_t line)
    {
        const int64_t run = runOf(e);
        if (const std::optional<int64_t> t = timeOf(e, "step_start_time")) {
            const int64_t step = stepOf(e, "step_count");
            if (step < 0) {
                m_diag.skipped(QStringLiteral("no-step-count"), QStringLiteral("line %1").arg(line),
                    QStringLiteral("Line %1 has a step_start_time without a step_count; it was skipped.")
                        .arg(line));
                return;
            }
            write(run, LifecycleKind::Step, *t, kInstant, step, {}, line);
        }
        if (const std::optional<int64_t> t = timeOf(e, "job_start_time"))
            write(run, LifecycleKind::JobStart, *t, kInstant, -1, {}, line);
        if (const std::optional<int64_t> t = timeOf(e, "job_end_time"))
            write(run, LifecycleKind::JobEnd, *t, kInstant, -1, {}, line);
        for (const PhaseKeys &p : kLibraryPhases) {
            const std::string *type = e.get("custom_badput_event_type");
            const QString label = p.kind == LifecycleKind::Custom && type ? qs(*type) : QString();
            if (const std::optional<int64_t> t = timeOf(e, p.start))
                open(run, p.kind, label, *t, -1, line);
            if (const std::optional<int64_t> t = timeOf(e, p.end))
                close(p.kind, label, *t, -1, line);
        }
        orbaxCheckpoint(e, run, line);
    }

    // Orbax's checkpoint logger entries, as ml-goodput-measurement's checkpoint badput calculator
    // reads them: the checkpoint manager's blocking span when logged, else the checkpointer's.
    void orbaxCheckpoint(const Entry &e, int64_t run, int64_t line)
    {
        const std::string *type = e.get("event_type");
        if (!type || (*type != "save" && *type != "restore"))
            return;
        const bool save = *type == "save";
        const char *const starts[]
            = { save ? "checkpoint_manager_blocking_start_time" : "checkpoint_manager_start_time",
                  save ? "checkpointer_blocking_start_time" : "checkpointer_start_time" };
        const char *const durations[]
            = { save ? "checkpoint_manager_blocking_duration_secs" : "checkpoint_manager_duration_secs",
                  save ? "checkpointer_blocking_duration_secs" : "checkpointer_duration_secs" };
        for (int i = 0; i < 2; ++i) {
            const std::optional<int64_t> start = timeOf(e, starts[i]), duration = timeOf(e, durations[i]);
            if (start && duration) {
                write(run, save ? LifecycleKind::CheckpointSave : LifecycleKind::CheckpointRestore, *start,
                    *start + std::max<int64_t>(0, *duration), stepOf(e), {}, line);
                return;
            }
        }
    }

    void plumbEvent(const Entry &e, int64_t line)
    {
        const std::string &name = *e.get("event");
        const int64_t run = runOf(e);
        if (name == "job_info") {
            for (const char *key : { "flops_per_step", "peak_flops_per_second" }) {
                if (const std::string *v = e.get(key); v && tabular::parseDouble(*v)) {
                    m_ctx.metricSink().setParam(run, QLatin1String(key), qs(*v), ParamKind::Number);
                    m_used = true;
                }
            }
            return;
        }
        QString label;
        if (const std::string *v = e.get("type"); v)
            label = qs(*v);
        else if (const std::string *r = e.get("reason"); r)
            label = qs(*r);
        const int64_t step = stepOf(e);

        const std::optional<int64_t> t = timeOf(e, "time"), start = timeOf(e, "start_time");
        const std::optional<int64_t> end = timeOf(e, "end_time"), duration = timeOf(e, "duration_s");

        static const std::map<std::string, LifecycleKind, std::less<>> instants {
            { "job_start", LifecycleKind::JobStart },
            { "job_end", LifecycleKind::JobEnd },
            { "step", LifecycleKind::Step },
            { "restart", LifecycleKind::Restart },
            { "interruption", LifecycleKind::Interruption },
            { "preemption", LifecycleKind::Interruption },
        };
        if (auto it = instants.find(name); it != instants.end()) {
            const std::optional<int64_t> at = t ? t : start;
            if (!at)
                return noTime(line, "time");
            if (it->second == LifecycleKind::Step && step < 0) {
                m_diag.skipped(QStringLiteral("no-step-count"), QStringLiteral("line %1").arg(line),
                    QStringLiteral("Line %1 is a step event without a \"step\"; it was skipped.").arg(line));
                return;
            }
            if (name == "preemption" && label.isEmpty())
                label = QStringLiteral("preemption");
            write(run, it->second, *at, kInstant, it->second == LifecycleKind::Step ? step : -1, label, line);
            return;
        }

        std::string base = name;
        int which = 0; // 0: one-line phase, 1: its start, 2: its end
        if (name == "provisioning_requested") {
            base = "provisioning", which = 1;
        } else if (name == "provisioning_ready") {
            base = "provisioning", which = 2;
        } else if (name.size() > 6 && name.compare(name.size() - 6, 6, "_start") == 0) {
            base = name.substr(0, name.size() - 6), which = 1;
        } else if (name.size() > 4 && name.compare(name.size() - 4, 4, "_end") == 0) {
            base = name.substr(0, name.size() - 4), which = 2;
        }
        const std::optional<LifecycleKind> kind = lifecycleKindFromName(qs(base));
        if (!kind || !isPhase(*kind))
            return; // reported as an unknown entry
        if (which == 0) {
            if (!start || (!end && !duration))
                return noTime(line, "start_time");
            const int64_t stop = end ? *end : *start + *duration;
            if (stop < *start) {
                m_diag.skipped(QStringLiteral("phase-ends-before-start"), QStringLiteral("line %1").arg(line),
                    QStringLiteral("The %1 on line %2 ends before it starts; it was skipped.")
                        .arg(qs(base), QString::number(line)));
                return;
            }
            write(run, *kind, *start, stop, step, label, line);
            return;
        }
        if (!t)
            return noTime(line, "time");
        if (which == 1)
            open(run, *kind, label, *t, step, line);
        else
            close(*kind, label, *t, step, line);
    }

    ImportContext &m_ctx;
    DiagnosticLog &m_diag;
    QString m_file;
    SqliteStmt m_insert;
    od::parser m_parser;
    std::unordered_map<QString, int64_t> m_runs; // by job name
    std::map<OpenKey, std::deque<Open>> m_open; // phases started and not yet ended
    int64_t m_written = 0;
    bool m_used = false; // the line being read said something that was kept
};

} // namespace

int LifecycleImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    Q_UNUSED(fileName);
    if (firstJsonByte(head) != '{')
        return 0;
    for (const char *key : { "\"job_start_time\"", "\"step_start_time\"", "\"tpu_init_start_time\"",
             "\"training_prep_start_time\"", "\"data_loading_start_time\"", "\"custom_badput_event_type\"",
             "\"job_end_time\"" })
        if (headHas(head, key))
            return 90;
    if (!headHas(head, "\"event\""))
        return 0;
    for (const char *name : { "\"job_start\"", "\"provisioning_requested\"", "\"interruption\"",
             "\"preemption\"", "\"restart\"", "\"job_info\"", "\"checkpoint_save", "\"checkpoint_restore",
             "\"accelerator_init", "\"training_prep", "\"data_loading" })
        if (headHas(head, name))
            return 85;
    return 0;
}

void LifecycleImporter::read(ImportContext &ctx) const
{
    Reader reader(ctx);
    reader.run();
}

} // namespace plumb
