// SPDX-License-Identifier: GPL-3.0-or-later
#include "paramsfile/paramsfileimporter.h"

#include "common/logfolder.h"
#include "ingest/diagnosticlog.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "ingest/metricsink.h"
#include "paramsfile/yamlparams.h"
#include "text/yamldocument.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <string_view>

namespace plumb {

namespace {

constexpr int64_t kMaxBytes = 16 * 1024 * 1024;

enum class Kind { None, LightningHparams, WandbConfig };

bool hasLine(std::string_view text, std::string_view start)
{
    for (size_t at = text.find(start); at != std::string_view::npos; at = text.find(start, at + 1))
        if (at == 0 || text[at - 1] == '\n')
            return true;
    return false;
}

// The first line that is no comment or document marker is a top-level "key:" entry.
bool startsAsMapping(std::string_view text)
{
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty() || line.front() == '#' || line.substr(0, 3) == "---" || line.front() == '%')
            continue;
        if (line == "{}")
            return true; // Lightning's file of a model without hparams
        const size_t colon = line.find(':');
        return line.front() != ' ' && line.front() != '-' && line.front() != '{' && line.front() != '['
            && colon != std::string_view::npos && colon > 0
            && (colon + 1 == line.size() || line[colon + 1] == ' ');
    }
    return false;
}

Kind kindOf(QByteArrayView head, const QString &fileName)
{
    const std::string_view h(head.data(), size_t(head.size()));
    if (h.find('\0') != std::string_view::npos || !startsAsMapping(h))
        return Kind::None;
    if (fileName == QLatin1String("hparams.yaml") || fileName == QLatin1String("hparams.yml"))
        return Kind::LightningHparams;
    if (fileName == QLatin1String("config.yaml") || fileName == QLatin1String("config.yml")) {
        if (hasLine(h, "wandb_version:"))
            return Kind::WandbConfig;
        // Without the header (older clients): entries of "desc" and "value".
        if (h.find("\n  desc:") != std::string_view::npos && h.find("\n  value:") != std::string_view::npos)
            return Kind::WandbConfig;
    }
    return Kind::None;
}

} // namespace

int ParamsFileImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    return kindOf(head, fileName) == Kind::None ? 0 : 90;
}

void ParamsFileImporter::read(ImportContext &ctx) const
{
    InputFile &in = ctx.input();
    const QString file = in.fileName();
    QByteArray text;
    char buf[65536];
    for (int64_t n; (n = in.read(buf, sizeof buf)) > 0;) {
        text.append(buf, qsizetype(n));
        if (text.size() > kMaxBytes)
            throw ImportError(
                QStringLiteral("%1 is over 16 MiB: too large for a settings file; nothing was imported")
                    .arg(file));
    }
    const Kind kind = kindOf(text, file);
    if (kind == Kind::None)
        throw ImportError(
            QStringLiteral("%1 is not a Lightning hparams.yaml or a W&B config.yaml; nothing was imported")
                .arg(file));

    YamlDocument::Error error;
    const std::optional<YamlDocument::Node> doc = YamlDocument::parse(text, error);
    if (!doc) {
        throw ImportError(error.text(file) + QStringLiteral(" (nothing was imported)"));
    }
    std::vector<YamlParams::Entry> params;
    if (kind == Kind::LightningHparams) {
        params = YamlParams::flatten(*doc, QLatin1Char('/'));
    } else {
        // key.desc is W&B's description of a key, key.value its value.
        for (auto &e : YamlParams::flatten(*doc, QLatin1Char('.'))) {
            if (e.key == QLatin1String("wandb_version"))
                continue;
            const qsizetype dot = e.key.indexOf(QLatin1Char('.'));
            if (dot < 0) {
                params.push_back(e);
                continue;
            }
            const QStringView rest = QStringView(e.key).mid(dot + 1);
            if (rest == QLatin1String("desc"))
                continue;
            if (rest == QLatin1String("value"))
                e.key = e.key.left(dot);
            else if (rest.startsWith(QLatin1String("value.")))
                e.key = e.key.left(dot) + rest.mid(5).toString();
            params.push_back(e);
        }
    }
    if (params.empty()) {
        ctx.diagnostics().report(Severity::Info, QStringLiteral("no-params"), {},
            QStringLiteral("%1 holds no settings: nothing to import.").arg(file));
        return;
    }
    MetricSink &sink = ctx.metricSink();
    const FolderRun fr = folderRun(QFileInfo(in.path()).absolutePath());
    const int64_t run = sink.openRun(fr.key, fr.name, fr.path);
    for (const auto &p : params)
        sink.setParam(run, p.key, p.value, p.kind);
    const QJsonObject md { { QStringLiteral("params_file"), file } };
    sink.mergeRunMetadata(run, QJsonDocument(md).toJson(QJsonDocument::Compact));
    ctx.recordsRead = int64_t(params.size());
}

} // namespace plumb
