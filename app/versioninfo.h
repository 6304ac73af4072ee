// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace plumb {

// The versions of Plumb and of the libraries this build uses, one "name version" line each, for the
// About dialog (with its Copy button) and `plumb --version`: Qt (the one running, and the one built
// against), SQLite, protobuf, simdjson, zlib, and whether the CUPTI collector was built, against
// which CUDA.
[[nodiscard]] QString versionReport();

} // namespace plumb
