// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace plumb {

class ImporterRegistry;

// Adds every importer of this build to `registry`. Called once by the app, the CLI and tests.
void registerBuiltinImporters(ImporterRegistry &registry);

} // namespace plumb
