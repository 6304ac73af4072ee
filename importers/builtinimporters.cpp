#include "builtinimporters.h"

#include "chrometraceimporter.h"
#include "importerregistry.h"

namespace plumb {

void registerBuiltinImporters(ImporterRegistry &registry)
{
    registry.add(std::make_unique<ChromeTraceImporter>());
}

} // namespace plumb
