// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace plumb {

class SqliteDb;

// Whether a write transaction is open on the connection: what it wrote is not yet another connection's to
// read, so work that reads on a second connection stays on this one meanwhile.
[[nodiscard]] bool inWriteTransaction(const SqliteDb &db);

} // namespace plumb
