#include "builtinimporters.h"

#include "chrometraceimporter.h"
#include "hftrainerimporter.h"
#include "importerregistry.h"
#include "lifecycleimporter.h"
#include "mlflowimporter.h"
#include "mlmdimporter.h"
#include "nsysimporter.h"
#include "openlineageimporter.h"
#include "paramsfileimporter.h"
#include "tabularimporter.h"
#include "tfeventsimporter.h"
#include "vllmbenchimporter.h"
#include "xplaneimporter.h"

namespace plumb {

void registerBuiltinImporters(ImporterRegistry &registry)
{
    registry.add(std::make_unique<ChromeTraceImporter>());
    registry.add(std::make_unique<XPlaneImporter>());
    registry.add(std::make_unique<NsysImporter>());
    registry.add(std::make_unique<TfEventsImporter>());
    registry.add(std::make_unique<MlflowImporter>());
    registry.add(std::make_unique<MlmdImporter>());
    registry.add(std::make_unique<TabularImporter>());
    registry.add(std::make_unique<ParamsFileImporter>());
    registry.add(std::make_unique<OpenLineageImporter>());
    registry.add(std::make_unique<LifecycleImporter>());
    registry.add(std::make_unique<VllmBenchImporter>());
    registry.add(std::make_unique<HfTrainerImporter>());
}

} // namespace plumb
