#include "builtinimporters.h"

#include "chrometraceimporter.h"
#include "importerregistry.h"
#include "xplaneimporter.h"
#include "nsysimporter.h"

namespace plumb {

void registerBuiltinImporters(ImporterRegistry &registry)
{
    registry.add(std::make_unique<ChromeTraceImporter>());
    registry.add(std::make_unique<XPlaneImporter>());
    registry.add(std::make_unique<NsysImporter>());
}

} // namespace plumb
