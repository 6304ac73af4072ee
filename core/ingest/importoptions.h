// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "tabular/tabularlayout.h"

namespace plumb {

// What a user told an import beyond the paths (command-line flags, an import dialog), handed by the
// runner to the importer through ImportContext::options(). Importers stay stateless: each reads the
// part that concerns its format and ignores the rest.
struct ImportOptions {
    TabularOverrides tabular; // CSV/JSONL metric logs: column roles
    [[nodiscard]] bool isEmpty() const { return tabular.isEmpty(); }
};

} // namespace plumb
