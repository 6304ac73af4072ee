// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

namespace plumb {

// OpenLineage RunEvents (Marquez, the Airflow, Spark and dbt integrations, the Python client's file
// transport): one event as a JSON object, a JSON array of events, or JSON lines (one event per line).
//
// We map them onto the lineage graph (LineageSink) as follows:
//  - a run (run.runId) is an execution node, type "job_run", key "openlineage:run/<runId>", named
//    "<job namespace>/<job name> (<first 8 characters of the run id>)". Its state is the eventType
//    (START, RUNNING, COMPLETE, FAIL, ABORT; OTHER leaves it as it was). The events of one run meet
//    in one node, in this file or across imports: a finished state is never replaced by START or
//    RUNNING (events arrive out of order), the span starts at the earliest eventTime and ends at
//    the latest COMPLETE/FAIL/ABORT's. Properties: the run facets by name (parent, nominalTime,
//    errorMessage, tags...), the job facets by name (sql, jobType...; "job:<name>" when a run facet
//    has that name), "producer" and "runId"; facets we do not know are kept as they are.
//  - a job is a context node, type "job", key "openlineage:job/<namespace>/<name>", its facets as
//    properties, with a 'contains' edge to each of its runs.
//  - a dataset is an artifact node, type "dataset", key "openlineage:dataset/<namespace>/<name>",
//    uri "<namespace>/<name>", properties its facets (schema, dataSource, columnLineage...) and its
//    input/output facets (dataQualityAssertions, outputStatistics...). An input is an 'input' edge
//    dataset -> run, an output an 'output' edge run -> dataset; the edges carry the input/output
//    facets, the output edge also the dataset's columnLineage.
//  - a parent run facet is a 'parent' edge from the parent run's node (created by key when not yet
//    seen, in its job) to the run.
// eventTime is ISO-8601 with Z or an offset, stored as epoch ns UTC.
//
// Templates (Marquez's docker/metadata.template.json, the integrations' test expectations) hold
// placeholders: an eventTime "{{RUN_START_TIME}}" is a warning and the event imports without a
// time; an unquoted {{...}} is read as a string (a warning); a runId "{{ any(result) }}" names no
// run, so such a run is identified by its job instead: key "openlineage:run/<job namespace>/<job
// name>/<placeholder>" (a warning), and a parent facet's placeholder by the parent's job likewise.
//
// A broken event (bad JSON, no run.runId or job) is skipped, the rest imports: a diagnostic names
// its place (array index or line) and byte. Static lineage (no eventType, no run): a JobEvent's job
// context gets the input/output edges to its datasets itself, a DatasetEvent's dataset becomes a node
// with its facets. A file in which no value is an event is refused (ImportError naming the file),
// and nothing is imported.
class OpenLineageImporter final : public Importer {
public:
    [[nodiscard]] QString id() const override { return QStringLiteral("openlineage"); }
    [[nodiscard]] QString displayName() const override { return QStringLiteral("OpenLineage events"); }
    [[nodiscard]] int version() const override { return 1; }
    [[nodiscard]] int sniff(QByteArrayView head, const QString &fileName) const override;
    void read(ImportContext &ctx) const override;
};

} // namespace plumb
