// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/readsnapshot.h"

#include "store/sqlitedb.h"

#include <sqlite3.h>

namespace plumb {

ReadSnapshot::ReadSnapshot(SqliteDb &db)
    : m_db(db)
    , m_owned(sqlite3_get_autocommit(db.handle()) != 0)
{
    if (m_owned) {
        m_db.exec("BEGIN");
    }
}

ReadSnapshot::~ReadSnapshot()
{
    if (m_owned && !sqlite3_get_autocommit(m_db.handle())) {
        sqlite3_exec(m_db.handle(), "COMMIT", nullptr, nullptr, nullptr);
    }
}

} // namespace plumb
