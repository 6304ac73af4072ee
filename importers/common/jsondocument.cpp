// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/jsondocument.h"

#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "ingest/metricsink.h"
#include "tabular/tabularlayout.h"

#include <QJsonDocument>
#include <QLocale>

#include <algorithm>
#include <string>

namespace plumb {

namespace {
constexpr int64_t kChunkBytes = 1 << 20;
}

simdjson::dom::element parseJsonInput(ImportContext &ctx, simdjson::dom::parser &parser, int64_t maxBytes)
{
    InputFile &in = ctx.input();
    const QString file = in.fileName();
    std::string text;
    for (;;) {
        const size_t old = text.size();
        text.resize(old + size_t(kChunkBytes));
        const int64_t got = in.read(text.data() + old, kChunkBytes);
        text.resize(old + size_t(std::max<int64_t>(got, 0)));
        if (got <= 0)
            break;
        if (int64_t(text.size()) > maxBytes)
            throw ImportError(
                QStringLiteral("%1 is over %2 MiB: too large to read as one JSON document; nothing "
                               "was imported")
                    .arg(file)
                    .arg(maxBytes >> 20));
        ctx.checkpoint();
    }
    simdjson::dom::element root;
    auto error = parser.parse(text.data(), text.size()).get(root);
    std::string quoted;
    if (error != simdjson::SUCCESS && tabular::quoteNonFiniteWords(text, quoted))
        error = parser.parse(quoted.data(), quoted.size()).get(root);
    if (error != simdjson::SUCCESS) {
        // Where the parse stopped, as a byte of the file (the quotes added before it left out).
        const std::string &parsed = quoted.empty() ? text : quoted;
        QJsonParseError e;
        QJsonDocument::fromJson(QByteArray::fromRawData(parsed.data(), qsizetype(parsed.size())), &e);
        size_t at = 0;
        for (size_t q = 0; q < size_t(e.offset) && q < parsed.size(); ++q)
            at += at < text.size() && parsed[q] == text[at];
        const QString byte = QLocale(QLocale::English).toString(qulonglong(at));
        throw ImportError(QStringLiteral("%1 is not valid JSON (%2 at byte %3); nothing was imported")
                              .arg(file, e.errorString(), byte),
            QStringLiteral("byte %1").arg(byte));
    }
    return root;
}

bool jsonNumber(simdjson::dom::element e, double &out)
{
    if (std::string_view s; e.get_string().get(s) == simdjson::SUCCESS && tabular::isNonFiniteWord(s)) {
        out = *tabular::parseDouble(s);
        return true;
    }
    return e.is_number() && e.get_double().get(out) == simdjson::SUCCESS; // integers convert too
}

bool setJsonParam(MetricSink &sink, int64_t run, const QString &key, simdjson::dom::element value)
{
    double number = 0;
    std::string_view s;
    bool b = false;
    if (jsonNumber(value, number))
        sink.setParam(run, key, tabular::formatNumber(number), ParamKind::Number);
    else if (value.get_string().get(s) == simdjson::SUCCESS)
        sink.setParam(run, key, QString::fromUtf8(s.data(), qsizetype(s.size())), ParamKind::String);
    else if (value.get_bool().get(b) == simdjson::SUCCESS)
        sink.setParam(run, key, b ? QStringLiteral("true") : QStringLiteral("false"), ParamKind::Bool);
    else
        return false;
    return true;
}

} // namespace plumb
