// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace plumb {

// Who is writing the SQLite database at `path` now: "process 1234 (plumb import big.json)", read from the
// kernel's table of file locks (/proc/locks: SQLite's write lock is byte 120 of the -shm file in WAL mode,
// its RESERVED byte in the database file otherwise). "another connection of this process" when the
// holder is this process; empty when nobody holds it, or when it cannot be told (not Linux, a lock
// held on another host of a network file system). For messages only: never decides anything.
[[nodiscard]] QString writeLockHolder(const QString &path);

} // namespace plumb
