// SPDX-License-Identifier: GPL-3.0-or-later
#include "tfevents/hparamsreader.h"

#include "ingest/diagnosticlog.h"
#include "ingest/metricsink.h"
#include "tfevents.pb.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <charconv>
#include <cmath>
#include <string>

namespace plumb {

namespace {

// Shortest round-trip text of a number: integers without a fraction, others positional for
// decimal exponents -4..15 and scientific beyond ("0.0001", "3e-05", "1e+16").
QString formatNumber(double v)
{
    if (std::isnan(v)) {
        return QStringLiteral("nan");
    }
    if (std::isinf(v)) {
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    }
    if (v == std::trunc(v) && std::fabs(v) < 1e16) {
        return QString::number(int64_t(v));
    }
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    const std::string_view sci(buf, size_t(res.ptr - buf));
    const size_t e = sci.find('e');
    const int exp = std::stoi(std::string(sci.substr(e + 1)));
    if (exp < -4 || exp >= 16) {
        return QString::fromLatin1(sci.data(), qsizetype(sci.size()));
    }
    std::string digits;
    bool negative = false;
    for (const char c : sci.substr(0, e)) {
        if (c == '-') {
            negative = true;
        } else if (c != '.') {
            digits.push_back(c);
        }
    }
    std::string out = negative ? "-" : "";
    if (exp < 0) {
        out += "0." + std::string(size_t(-exp - 1), '0') + digits;
    } else {
        if (digits.size() <= size_t(exp) + 1) {
            digits.append(size_t(exp) + 2 - digits.size(), '0');
        }
        out += digits.substr(0, size_t(exp) + 1) + '.' + digits.substr(size_t(exp) + 1);
    }
    return QString::fromStdString(out);
}

QJsonValue jsonOf(const tfevents::JsonValue &v)
{
    using K = tfevents::JsonValue::KindCase;
    switch (v.kind_case()) {
    case K::kNumberValue:
        return std::isfinite(v.number_value()) ? QJsonValue(v.number_value()) : QJsonValue();
    case K::kStringValue:
        return QString::fromStdString(v.string_value());
    case K::kBoolValue:
        return v.bool_value();
    case K::kStructValue: {
        QJsonObject o;
        for (const auto &[key, value] : v.struct_value().fields()) {
            o.insert(QString::fromStdString(key), jsonOf(value));
        }
        return o;
    }
    case K::kListValue: {
        QJsonArray a;
        for (const auto &value : v.list_value().values()) {
            a.append(jsonOf(value));
        }
        return a;
    }
    default:
        return QJsonValue();
    }
}

} // namespace

void HParamsReader::read(std::string_view content, const QString &here)
{
    tfevents::HParamsPluginData data;
    if (!data.ParseFromArray(content.data(), int(content.size()))) {
        m_diag.report(Severity::Warning, QStringLiteral("bad-hparams"), here,
            QStringLiteral("An hparams summary is not readable; it was skipped."));
        return;
    }
    using D = tfevents::HParamsPluginData::DataCase;
    switch (data.data_case()) {
    case D::kExperiment: {
        const auto &e = data.experiment();
        QJsonObject x;
        auto setText = [](QJsonObject &o, const char *key, const std::string &s) {
            if (!s.empty()) {
                o.insert(QLatin1String(key), QString::fromStdString(s));
            }
        };
        setText(x, "name", e.name());
        setText(x, "description", e.description());
        setText(x, "user", e.user());
        if (e.time_created_secs() > 0) {
            x.insert(QStringLiteral("time_created_secs"), e.time_created_secs());
        }
        QJsonArray hps;
        for (const auto &h : e.hparam_infos()) {
            QJsonObject o;
            setText(o, "name", h.name());
            setText(o, "display_name", h.display_name());
            setText(o, "description", h.description());
            static const char *const types[] = { "", "string", "bool", "float64" };
            if (h.type() > 0 && h.type() < 4) {
                o.insert(QStringLiteral("type"), QLatin1String(types[h.type()]));
            }
            if (h.has_domain_discrete()) {
                QJsonArray values;
                for (const auto &v : h.domain_discrete().values()) {
                    values.append(jsonOf(v));
                }
                o.insert(QStringLiteral("domain"), values);
            } else if (h.has_domain_interval()) {
                o.insert(QStringLiteral("domain"),
                    QJsonObject { { QStringLiteral("min"), h.domain_interval().min_value() },
                        { QStringLiteral("max"), h.domain_interval().max_value() } });
            }
            hps.append(o);
        }
        x.insert(QStringLiteral("hparams"), hps);
        QJsonArray metrics;
        for (const auto &m : e.metric_infos()) {
            QJsonObject o;
            setText(o, "group", m.name().group());
            setText(o, "tag", m.name().tag());
            setText(o, "display_name", m.display_name());
            setText(o, "description", m.description());
            if (m.dataset_type() == tfevents::DATASET_TRAINING) {
                o.insert(QStringLiteral("dataset"), QStringLiteral("training"));
            } else if (m.dataset_type() == tfevents::DATASET_VALIDATION) {
                o.insert(QStringLiteral("dataset"), QStringLiteral("validation"));
            }
            metrics.append(o);
        }
        x.insert(QStringLiteral("metrics"), metrics);
        m_sink.mergeRunMetadata(m_run(),
            QJsonDocument(QJsonObject { { QStringLiteral("hparams_experiment"), x } })
                .toJson(QJsonDocument::Compact));
        break;
    }
    case D::kSessionStartInfo: {
        const auto &s = data.session_start_info();
        using K = tfevents::JsonValue::KindCase;
        // The hparams plugin's copy of the configuration: a params file of the run wins over it.
        const auto set = [&](const QString &k, const QString &value, ParamKind kind) {
            m_sink.setParam(m_run(), k, value, kind, /*copy=*/true);
        };
        for (const auto &[key, v] : s.hparams()) {
            const QString k = QString::fromStdString(key);
            switch (v.kind_case()) {
            case K::kNumberValue:
                set(k, formatNumber(v.number_value()), ParamKind::Number);
                break;
            case K::kStringValue:
                set(k, QString::fromStdString(v.string_value()), ParamKind::String);
                break;
            case K::kBoolValue:
                set(k, v.bool_value() ? QStringLiteral("true") : QStringLiteral("false"), ParamKind::Bool);
                break;
            case K::kStructValue:
            case K::kListValue: {
                const QJsonValue j = jsonOf(v);
                const QByteArray text = j.isArray()
                    ? QJsonDocument(j.toArray()).toJson(QJsonDocument::Compact)
                    : QJsonDocument(j.toObject()).toJson(QJsonDocument::Compact);
                set(k, QString::fromUtf8(text), ParamKind::Json);
                break;
            }
            default:
                set(k, QString(), ParamKind::Null);
            }
        }
        if (!s.group_name().empty()) {
            m_sink.setRunGroup(m_run(), QString::fromStdString(s.group_name()));
        }
        if (s.start_time_secs() > 0) {
            m_sink.noteRunTime(m_run(), int64_t(std::llround(s.start_time_secs() * 1e9)));
        }
        if (!m_sessionEnded) {
            m_sink.setRunStatus(m_run(), QStringLiteral("unknown"));
        }
        break;
    }
    case D::kSessionEndInfo: {
        const auto &s = data.session_end_info();
        static const char *const names[] = { "unknown", "success", "failure", "running" };
        const int st = s.status();
        m_sink.setRunStatus(m_run(), QLatin1String(st >= 0 && st < 4 ? names[st] : "unknown"));
        m_sessionEnded = true;
        if (s.end_time_secs() > 0) {
            m_sink.noteRunTime(m_run(), int64_t(std::llround(s.end_time_secs() * 1e9)));
        }
        break;
    }
    default:
        m_diag.report(Severity::Info, QStringLiteral("empty-hparams"), here,
            QStringLiteral("An hparams summary holds no experiment, session start or session end."));
    }
}

} // namespace plumb
