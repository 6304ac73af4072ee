// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace plumb {

class SqliteDb;

// Maps a call of the read-side timeline queries (timelinequery.h) to one SQLite read transaction.
// It holds one read transaction for the queries of a call unless the caller has one open: one
// snapshot for all of them (an import committing meanwhile cannot tear the answer), and no WAL
// lock taken and released around each of the many small queries.
class ReadSnapshot {
public:
    explicit ReadSnapshot(SqliteDb &db);
    ~ReadSnapshot();
    ReadSnapshot(const ReadSnapshot &) = delete;
    ReadSnapshot &operator=(const ReadSnapshot &) = delete;

private:
    SqliteDb &m_db;
    bool m_owned; // BEGIN was ours: the destructor ends it
};

} // namespace plumb
