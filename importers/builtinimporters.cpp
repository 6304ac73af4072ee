// SPDX-License-Identifier: GPL-3.0-or-later
#include "builtinimporters.h"

#include "chrometrace/chrometraceimporter.h"
#include "hftrainer/hftrainerimporter.h"
#include "ingest/importerregistry.h"
#include "lifecycle/lifecycleimporter.h"
#include "mlflow/mlflowimporter.h"
#include "mlmd/mlmdimporter.h"
#include "nsys/nsysimporter.h"
#include "openlineage/openlineageimporter.h"
#include "paramsfile/paramsfileimporter.h"
#include "tabular/tabularimporter.h"
#include "tfevents/tfeventsimporter.h"
#include "vllm/vllmbenchimporter.h"
#include "xplane/xplaneimporter.h"

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
