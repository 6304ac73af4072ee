#pragma once

namespace plumb {

class ImporterRegistry;

// Adds every importer of this build to `registry`. Called once by the app, the CLI and tests.
void registerBuiltinImporters(ImporterRegistry &registry);

} // namespace plumb
