// SPDX-License-Identifier: GPL-3.0-or-later
#include "present/querypresent.h"

#include "text/jsontext.h"
#include "text/textformat.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <string>

namespace plumb {

namespace {

// Table cells longer than this are shortened (CSV and JSON give them whole).
constexpr int kMaxCell = 80;

bool isNumber(const QVariant &v)
{
    return v.typeId() == QMetaType::LongLong || v.typeId() == QMetaType::Double;
}

QString realText(double d)
{
    if (std::isnan(d))
        return QStringLiteral("NaN");
    if (std::isinf(d))
        return d > 0 ? QStringLiteral("Infinity") : QStringLiteral("-Infinity");
    QString s = QString::number(d, 'g', QLocale::FloatingPointShortest);
    // A real stays a real when read back: 2 -> 2.0.
    if (!s.contains(QLatin1Char('.')) && !s.contains(QLatin1Char('e')))
        s += QStringLiteral(".0");
    return s;
}

// A value as CSV and table cells show it.
QString plainText(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::LongLong:
        return QString::number(v.toLongLong());
    case QMetaType::Double:
        return realText(v.toDouble());
    case QMetaType::QString:
        return v.toString();
    case QMetaType::QByteArray:
        return QString::fromLatin1(v.toByteArray().toBase64());
    default:
        return {};
    }
}

void appendJsonValue(std::string &out, const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::LongLong:
        out += std::to_string(v.toLongLong());
        return;
    case QMetaType::Double: {
        const double d = v.toDouble();
        out += std::isfinite(d) ? realText(d).toStdString() : std::string("null");
        return;
    }
    case QMetaType::QString:
        appendJsonString(out, v.toString().toStdString());
        return;
    case QMetaType::QByteArray:
        appendJsonString(out, v.toByteArray().toBase64().toStdString());
        return;
    default:
        out += "null";
    }
}

} // namespace

QString csvField(const QString &value)
{
    if (!value.contains(QLatin1Char(',')) && !value.contains(QLatin1Char('"'))
        && !value.contains(QLatin1Char('\r')) && !value.contains(QLatin1Char('\n')))
        return value;
    QString quoted = value;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QueryPresenter::QueryPresenter(QueryFormat format, std::function<void(const QString &)> out)
    : m_format(format)
    , m_out(std::move(out))
{
}

void QueryPresenter::begin(const QStringList &columns)
{
    m_columns = columns;
    m_rows = 0;
    switch (m_format) {
    case QueryFormat::Csv: {
        QStringList fields;
        for (const QString &c : columns)
            fields << csvField(c);
        m_out(fields.join(QLatin1Char(',')) + QStringLiteral("\r\n"));
        break;
    }
    case QueryFormat::Json: {
        std::string s = "{\n    \"schema\": \"plumb.query/1\",\n    \"columns\": [";
        for (qsizetype i = 0; i < columns.size(); ++i) {
            if (i)
                s += ", ";
            appendJsonString(s, columns[i].toStdString());
        }
        s += "],\n    \"rows\": [";
        m_out(QString::fromStdString(s));
        break;
    }
    case QueryFormat::Table:
        m_cells.clear();
        m_numeric.assign(size_t(columns.size()), true);
        break;
    }
}

void QueryPresenter::row(const QVariantList &values)
{
    switch (m_format) {
    case QueryFormat::Csv: {
        QStringList fields;
        for (const QVariant &v : values)
            fields << csvField(plainText(v));
        m_out(fields.join(QLatin1Char(',')) + QStringLiteral("\r\n"));
        break;
    }
    case QueryFormat::Json: {
        std::string s = m_rows ? ",\n        {" : "\n        {";
        for (qsizetype i = 0; i < values.size() && i < m_columns.size(); ++i) {
            if (i)
                s += ", ";
            appendJsonString(s, m_columns[i].toStdString());
            s += ": ";
            appendJsonValue(s, values[i]);
        }
        s += '}';
        m_out(QString::fromStdString(s));
        break;
    }
    case QueryFormat::Table: {
        QStringList cells;
        for (qsizetype i = 0; i < values.size(); ++i) {
            const QVariant &v = values[i];
            if (v.typeId() == QMetaType::QByteArray)
                cells << QStringLiteral("<%1 bytes>").arg(v.toByteArray().size());
            else
                cells << text::elided(
                    plainText(v).replace(QLatin1Char('\n'), QStringLiteral("\\n")), kMaxCell);
            if (!v.isNull() && !isNumber(v) && size_t(i) < m_numeric.size())
                m_numeric[size_t(i)] = false;
        }
        m_cells.push_back(cells);
        break;
    }
    }
    ++m_rows;
}

void QueryPresenter::end()
{
    switch (m_format) {
    case QueryFormat::Csv:
        break;
    case QueryFormat::Json:
        m_out(m_rows ? QStringLiteral("\n    ]\n}\n") : QStringLiteral("]\n}\n"));
        break;
    case QueryFormat::Table: {
        std::vector<qsizetype> width;
        for (const QString &c : m_columns)
            width.push_back(c.size());
        for (const QStringList &r : m_cells)
            for (qsizetype i = 0; i < r.size() && size_t(i) < width.size(); ++i)
                width[size_t(i)] = std::max(width[size_t(i)], r[i].size());
        auto line = [&](const QStringList &cells) -> QString {
            QString s;
            for (qsizetype i = 0; i < cells.size() && size_t(i) < width.size(); ++i) {
                if (i)
                    s += QStringLiteral("  ");
                const bool right = m_numeric[size_t(i)];
                const bool last = i + 1 == cells.size();
                s += right ? cells[i].rightJustified(width[size_t(i)])
                    : last ? cells[i]
                           : cells[i].leftJustified(width[size_t(i)]);
            }
            return s + QLatin1Char('\n');
        };
        QString text = line(m_columns);
        QStringList rules;
        for (const qsizetype w : width)
            rules << QString(std::max<qsizetype>(w, 1), QLatin1Char('-'));
        text += rules.join(QStringLiteral("  ")) + QLatin1Char('\n');
        for (const QStringList &r : m_cells)
            text += line(r);
        text += QStringLiteral("(%1 %2)\n")
                    .arg(m_rows)
                    .arg(m_rows == 1 ? QStringLiteral("row") : QStringLiteral("rows"));
        m_out(text);
        m_cells.clear();
        break;
    }
    }
}

} // namespace plumb
