// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsysschema.h"

#include "ingest/importerror.h"

#include <QStringList>

#include <algorithm>

namespace plumb::nsys {

NsysSchema::NsysSchema(const QString &path)
    : m_db(path)
{
    checkIsNsight();
}

void NsysSchema::checkIsNsight()
{
    for (auto &t : m_db.tables()) {
        m_tables.insert(std::move(t));
    }
    bool eventTables = false;
    bool nsightTables = false;
    for (const auto &t : m_tables) {
        if (hasPrefix(t, "CUPTI_ACTIVITY_KIND_") || t == "NVTX_EVENTS" || t == "OSRT_API") {
            eventTables = true;
        }
        if (hasPrefix(t, "TARGET_INFO_") || hasPrefix(t, "META_DATA_") || t == "ThreadNames"
            || t == "ANALYSIS_DETAILS") {
            nsightTables = true;
        }
    }
    if (!m_tables.count("StringIds") || !(eventTables || nsightTables)) {
        QStringList some;
        for (const auto &t : m_tables) {
            if (some.size() == 5) {
                break;
            }
            some << QString::fromStdString(t);
        }
        const QString found = m_tables.empty()
            ? QStringLiteral("it has no tables")
            : QStringLiteral("its tables are %1%2")
                  .arg(some.join(QStringLiteral(", ")),
                      m_tables.size() > 5 ? QStringLiteral(", ...") : QString());
        throw ImportError(
            QStringLiteral("%1 is an SQLite database but not an Nsight Systems export: it has no "
                           "StringIds table and no CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS or "
                           "TARGET_INFO_* tables (%2)")
                .arg(m_db.fileName(), found));
    }
}

bool NsysSchema::hasColumns(const char *table, std::initializer_list<const char *> columns)
{
    if (!m_tables.count(table)) {
        return false;
    }
    const auto cols = m_db.columns(table);
    return std::all_of(columns.begin(), columns.end(),
        [&](const char *c) { return std::find(cols.begin(), cols.end(), c) != cols.end(); });
}

std::string NsysSchema::enumLabel(const char *table, int64_t id)
{
    if (!hasColumns(table, { "label" })) {
        return {};
    }
    ForeignSqliteDb::Stmt st(m_db, "SELECT label FROM " + quoteIdentifier(table) + " WHERE id = ?", table);
    st.bind(1, id);
    return st.step() ? std::string(st.text(0)) : std::string();
}

} // namespace plumb::nsys
