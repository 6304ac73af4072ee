// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/schema.h"

namespace plumb {

// Conventions: times are int64 ns; *_id columns reference the table of the same name; strings
// that repeat (names, categories, arg sets) are interned in `string`.
static constexpr std::string_view kMigration1 = R"sql(
CREATE TABLE workspace_info(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;

CREATE TABLE string(
    id   INTEGER PRIMARY KEY,
    str  TEXT NOT NULL
);

-- Event arguments as compact JSON, shared by the events that have identical ones.
CREATE TABLE args(
    id   INTEGER PRIMARY KEY,
    json TEXT NOT NULL
);

-- One row per imported file. Failed imports roll back and leave no row.
CREATE TABLE source(
    id              INTEGER PRIMARY KEY,
    path            TEXT NOT NULL,
    name            TEXT NOT NULL,
    size_bytes      INTEGER NOT NULL,
    mtime_ns        INTEGER,
    content_hash    TEXT NOT NULL,      -- ContentHash (2 x XXH64) of the bytes on disk, 32 hex digits
    format          TEXT NOT NULL,      -- importer id, e.g. 'chrometrace'
    importer_version INTEGER NOT NULL,
    status          TEXT NOT NULL,      -- 'ok' | 'partial' (imported with warnings/errors)
    imported_at_ns  INTEGER NOT NULL,
    import_ms       INTEGER,
    event_count     INTEGER NOT NULL DEFAULT 0,
    skipped_count   INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX source_hash ON source(content_hash, size_bytes);

-- Problems found in an input: counted per (source, code, first location).
CREATE TABLE diagnostic(
    id          INTEGER PRIMARY KEY,
    source_id   INTEGER NOT NULL,
    severity    TEXT NOT NULL,          -- 'info' | 'warning' | 'error'
    code        TEXT NOT NULL,          -- stable identifier, e.g. 'unsorted-events'
    location    TEXT,                   -- first place seen: 'byte 1234', 'line 5', 'event 17'
    message     TEXT NOT NULL,
    count       INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX diagnostic_source ON diagnostic(source_id);

-- An experiment run or trial; traces of one job (all ranks) belong to one run.
CREATE TABLE run(
    id          INTEGER PRIMARY KEY,
    key         TEXT NOT NULL UNIQUE,   -- identity used to attach later imports to the same run
    name        TEXT NOT NULL,
    created_at_ns INTEGER NOT NULL
);

CREATE TABLE trace(
    id              INTEGER PRIMARY KEY,
    run_id          INTEGER NOT NULL,
    source_id       INTEGER NOT NULL,
    format          TEXT NOT NULL,
    name            TEXT NOT NULL,
    rank            INTEGER,
    world_size      INTEGER,
    base_time_ns    INTEGER,            -- add to slice.ts for wall-clock time, when the file says
    start_ns        INTEGER,
    end_ns          INTEGER,
    event_count     INTEGER NOT NULL DEFAULT 0,   -- trace events read
    slice_count     INTEGER NOT NULL DEFAULT 0,
    kernel_count    INTEGER NOT NULL DEFAULT 0,   -- GPU kernels
    gpu_op_count    INTEGER NOT NULL DEFAULT 0,   -- kernels + memcpy + memset
    flow_count      INTEGER NOT NULL DEFAULT 0,   -- flows: rows in `flow` + corr_flow_count
    corr_flow_count INTEGER NOT NULL DEFAULT 0,   -- launch->GPU flows stored as slice.corr (see flow);
                                                  -- formats without flow events (Nsight, XPlane): the
                                                  -- GPU ops (Nsight: and syncs) whose call is in the trace
    counter_count   INTEGER NOT NULL DEFAULT 0,
    metadata        TEXT                -- JSON: top-level fields of the file (deviceProperties...)
);
CREATE INDEX trace_run ON trace(run_id);

CREATE TABLE device(
    trace_id    INTEGER NOT NULL,
    device_index INTEGER NOT NULL,
    name        TEXT,
    properties  TEXT,                   -- JSON as written by the profiler
    PRIMARY KEY(trace_id, device_index)
) WITHOUT ROWID;

CREATE TABLE process(
    id          INTEGER PRIMARY KEY,
    trace_id    INTEGER NOT NULL,
    pid         INTEGER,                -- numeric pid, when the file has one
    label       TEXT NOT NULL,          -- pid as written (numbers and strings alike)
    name        TEXT,
    labels      TEXT,                   -- e.g. 'GPU 0' (Chrome trace process_labels)
    kind        TEXT NOT NULL,          -- 'cpu' | 'gpu' | 'other'
    device_index INTEGER,
    sort_index  INTEGER
);
CREATE INDEX process_trace ON process(trace_id);

CREATE TABLE track(
    id          INTEGER PRIMARY KEY,
    trace_id    INTEGER NOT NULL,
    process_id  INTEGER,
    kind        TEXT NOT NULL,          -- 'thread' | 'gpu_stream' | 'counter' | 'global', and the companions
                                        -- 'cuda_api' (a thread's CUDA calls), 'gpu_annotation' (a stream's)
    tid         INTEGER,
    label       TEXT,                   -- tid as written
    name        TEXT,
    stream      INTEGER,                -- CUDA stream id for 'gpu_stream'
    sort_index  INTEGER,
    slice_count INTEGER NOT NULL DEFAULT 0,
    max_depth   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX track_trace ON track(trace_id);

-- Durations and instants (dur = 0). Clustered on (track, start) so a time window of a track is one
-- range scan. depth = nesting level on its track (0 = outermost). corr = CUDA correlation id,
-- ext_id = PyTorch External id, seq_nr = autograd Sequence number, ev_idx = Kineto Ev Idx, rf_id =
-- Record function id: promoted out of args because they are unique per event, so that the remaining
-- args (args_id, compact JSON) are shared by the many events that have identical ones.
CREATE TABLE slice(
    track_id    INTEGER NOT NULL,
    ts          INTEGER NOT NULL,
    id          INTEGER NOT NULL,
    dur         INTEGER NOT NULL,
    depth       INTEGER NOT NULL,
    name_id     INTEGER NOT NULL,
    cat_id      INTEGER,
    corr        INTEGER,
    ext_id      INTEGER,
    seq_nr      INTEGER,
    ev_idx      INTEGER,
    rf_id       INTEGER,
    args_id     INTEGER,
    PRIMARY KEY(track_id, ts, id)
) WITHOUT ROWID;

-- Flow arrows (forward -> backward, ...). An end is NULL when the file had only the other one. Ends
-- bind to the deepest slice on their track that encloses the timestamp.
-- Launch -> GPU-op links are first-class through slice.corr (a CUDA API slice and the GPU ops with
-- the same corr in the same trace, as Nsight exports link them too). A profiler's launch flow whose
-- two ends are exactly those slices adds nothing to that link, so it is counted in
-- trace.corr_flow_count instead of stored here; every other flow is a row.
CREATE TABLE flow(
    id          INTEGER PRIMARY KEY,
    trace_id    INTEGER NOT NULL,
    cat_id      INTEGER,
    flow_key    INTEGER,                -- the id in the file
    src_track   INTEGER,
    src_ts      INTEGER,
    dst_track   INTEGER,
    dst_ts      INTEGER
);

CREATE TABLE counter(
    track_id    INTEGER NOT NULL,
    ts          INTEGER NOT NULL,
    id          INTEGER NOT NULL,
    value       REAL NOT NULL,
    PRIMARY KEY(track_id, ts, id)
) WITHOUT ROWID;
)sql";

// Secondary indexes are built after the first bulk load (see TraceSink); this migration only
// names them so every workspace has the same set once it holds a trace. (slice_corr was replaced by
// slice_corr_tile in migration 11.)
static constexpr std::string_view kMigration2 = R"sql(
CREATE INDEX IF NOT EXISTS slice_corr ON slice(corr) WHERE corr IS NOT NULL;
CREATE INDEX IF NOT EXISTS flow_src ON flow(src_track, src_ts);
CREATE INDEX IF NOT EXISTS flow_dst ON flow(dst_track, dst_ts);
)sql";

static constexpr std::string_view kSecondaryIndexes = R"sql(
CREATE INDEX IF NOT EXISTS flow_src ON flow(src_track, src_ts);
CREATE INDEX IF NOT EXISTS flow_dst ON flow(dst_track, dst_ts);
)sql";

static constexpr std::string_view kDropSecondaryIndexes = R"sql(
DROP INDEX IF EXISTS flow_src;
DROP INDEX IF EXISTS flow_dst;
)sql";

std::string_view secondaryIndexesSql()
{
    return kSecondaryIndexes;
}

std::string_view dropSecondaryIndexesSql()
{
    return kDropSecondaryIndexes;
}

// The longest slice of each track bounds how far before a time window a slice overlapping it can
// start, so the timeline reads a window as one range scan of the (track, ts) key.
static constexpr std::string_view kMigration3 = R"sql(
ALTER TABLE track ADD COLUMN max_dur_ns INTEGER NOT NULL DEFAULT 0;
UPDATE track SET max_dur_ns = coalesce((SELECT max(dur) FROM slice WHERE slice.track_id = track.id), 0);
)sql";

// Level-of-detail summaries of slice tracks for the timeline (see core/timeline/slicesummary.h):
// one row per (track, level, tile) in which a slice starts; data = the encoded tile. Tracks get
// lod_origin_ns, the start of their bucket 0, when summarised. Workspace::migrate() builds them
// for the traces already there.
static constexpr std::string_view kMigration4 = R"sql(
CREATE TABLE slice_lod(
    track_id    INTEGER NOT NULL,
    level       INTEGER NOT NULL,       -- buckets of 2^level ns
    tile        INTEGER NOT NULL,       -- buckets [tile*1024, (tile+1)*1024)
    data        BLOB NOT NULL,
    PRIMARY KEY(track_id, level, tile)
);
ALTER TABLE track ADD COLUMN lod_origin_ns INTEGER;
)sql";

// Level-of-detail summaries of counter tracks (core/timeline/countersummary.h), built like slice_lod.
static constexpr std::string_view kMigration5 = R"sql(
CREATE TABLE counter_lod(
    track_id    INTEGER NOT NULL,
    level       INTEGER NOT NULL,
    tile        INTEGER NOT NULL,
    data        BLOB NOT NULL,
    PRIMARY KEY(track_id, level, tile)
);
)sql";

// Experiment logs (TensorBoard event files today; MLflow and CSV/JSONL later), written through
// MetricSink. A run of such a log is one folder of event files (or one MLflow run); a trial of a
// hyperparameter search is a run with params from the search (TensorBoard hparams session start),
// and the runs in folders beneath it (Keras writes train/ and validation/) name it as parent.
//
// Series: the points of one (run, key) are cut into segments where the step goes backwards (a job
// that restarted from a checkpoint and logged the same steps again). Every point of every segment
// is kept. What TensorBoard shows for a series is, at each step, the latest segment that reached
// it: a point of segment s is superseded when a later segment of the same series starts at or
// before its step (metric_series.first_step).
static constexpr std::string_view kMigration6 = R"sql(
ALTER TABLE run ADD COLUMN path TEXT;              -- the folder of an experiment log run
ALTER TABLE run ADD COLUMN parent_run_id INTEGER;  -- the trial a sub-run (train/, validation/) belongs to
ALTER TABLE run ADD COLUMN group_name TEXT;        -- hparams session group, when the search names one
ALTER TABLE run ADD COLUMN status TEXT;            -- trials: 'unknown' | 'success' | 'failure' | 'running'
ALTER TABLE run ADD COLUMN start_ns INTEGER;       -- wall clock, epoch ns: first event or session start
ALTER TABLE run ADD COLUMN end_ns INTEGER;         -- last event or session end
ALTER TABLE run ADD COLUMN metadata TEXT;          -- JSON: e.g. the hparams experiment (domains, metrics)

-- Run configuration: hyperparameters, and later environment and library versions.
CREATE TABLE param(
    run_id      INTEGER NOT NULL,
    key         TEXT NOT NULL,
    value       TEXT NOT NULL,          -- numbers in shortest round-trip form, bools 'true'/'false'
    kind        TEXT NOT NULL,          -- 'number' | 'string' | 'bool' | 'null' | 'json'
    PRIMARY KEY(run_id, key)
) WITHOUT ROWID;

-- Scalar points, clustered so that one series (or a step range of one segment) is a range scan.
-- dup numbers the points that share a step within a segment (0 for the first).
CREATE TABLE metric(
    run_id      INTEGER NOT NULL,
    key_id      INTEGER NOT NULL,       -- string: the tag
    segment     INTEGER NOT NULL,       -- 0, then +1 at each restart (step went backwards)
    step        INTEGER NOT NULL,
    dup         INTEGER NOT NULL,
    wall_time_ns INTEGER NOT NULL,
    value       REAL,                   -- NULL for NaN (SQLite has no NaN); infinities kept
    PRIMARY KEY(run_id, key_id, segment, step, dup)
) WITHOUT ROWID;

-- Histograms, normalised whatever the encoding: buckets = bucket_count x (left edge, right edge,
-- count) as little-endian float64, which is the [k,3] tensor form; a legacy HistogramProto is
-- converted as TensorBoard does (empty buckets at both ends dropped, min and max as the outer
-- edges) and keeps its summary statistics, which the tensor form has not (NULL there).
CREATE TABLE histogram(
    run_id      INTEGER NOT NULL,
    key_id      INTEGER NOT NULL,
    segment     INTEGER NOT NULL,
    step        INTEGER NOT NULL,
    dup         INTEGER NOT NULL,
    wall_time_ns INTEGER NOT NULL,
    bucket_count INTEGER NOT NULL,
    buckets     BLOB NOT NULL,
    min         REAL,
    max         REAL,
    num         REAL,
    sum         REAL,
    sum_squares REAL,
    PRIMARY KEY(run_id, key_id, segment, step, dup)
) WITHOUT ROWID;

-- One row per segment of a series: what a runs table, a restart marker or a chart's axis range
-- needs without reading the points.
CREATE TABLE metric_series(
    run_id      INTEGER NOT NULL,
    key_id      INTEGER NOT NULL,
    kind        TEXT NOT NULL,          -- 'scalar' | 'histogram'
    segment     INTEGER NOT NULL,
    points      INTEGER NOT NULL,
    first_step  INTEGER NOT NULL,
    last_step   INTEGER NOT NULL,
    first_wall_ns INTEGER NOT NULL,     -- of a segment > 0: when the restarted job logged again
    last_wall_ns INTEGER NOT NULL,
    min_value   REAL,                   -- scalars: over the segment's finite values
    max_value   REAL,
    last_value  REAL,
    PRIMARY KEY(run_id, key_id, kind, segment)
) WITHOUT ROWID;
)sql";

// Continued imports: a log only ever appended to (a TensorBoard event file while training runs) is
// imported again from the byte where the previous import of the same path stopped, as a new source
// holding the bytes [that offset, size_bytes) whose content_hash covers the one it continues.
static constexpr std::string_view kMigration7 = R"sql(
ALTER TABLE source ADD COLUMN resume_offset INTEGER;       -- byte after the last complete record read; NULL: cannot continue
ALTER TABLE source ADD COLUMN edge_hash TEXT;              -- ContentHash of the first and last 4 KiB before resume_offset
ALTER TABLE source ADD COLUMN continues_source_id INTEGER; -- the source this one continues
)sql";

// Lineage (ML Metadata stores, OpenLineage events): one graph of what pipelines recorded. Nodes are
// artifacts/datasets, executions/job runs and contexts/jobs/pipelines, found again by `key` when a
// later import names them (an OpenLineage run's START and COMPLETE, a store imported again), so that
// both formats meet in one model. Edges follow the data: artifact -input-> execution -output->
// artifact; a context -contains-> what it groups; -parent-> links a context or run to its child.
static constexpr std::string_view kMigration8 = R"sql(
CREATE TABLE lineage_node(
    id          INTEGER PRIMARY KEY,
    source_id   INTEGER NOT NULL,       -- the import that first wrote it
    kind        TEXT NOT NULL,          -- 'artifact' | 'execution' | 'context'
    type        TEXT,                   -- ML Metadata type name (Model, Trainer, pipeline_run); OpenLineage:
                                        -- 'dataset', 'job_run', 'job'
    key         TEXT NOT NULL UNIQUE,   -- e.g. 'mlmd:<store>#artifact/12', 'openlineage:run/<runId>'
    name        TEXT NOT NULL,
    uri         TEXT,                   -- artifacts and datasets: where the data lives
    state       TEXT,                   -- artifacts: LIVE, DELETED...; executions: COMPLETE, FAILED, RUNNING...
    start_ns    INTEGER,                -- epoch ns
    end_ns      INTEGER,
    properties  TEXT                    -- JSON object: properties, custom properties, facets
);
CREATE TABLE lineage_edge(
    from_id     INTEGER NOT NULL,
    to_id       INTEGER NOT NULL,
    kind        TEXT NOT NULL,          -- 'input' | 'output' | 'contains' | 'parent'
    properties  TEXT,                   -- JSON: ML Metadata event type and path, column lineage...
    source_id   INTEGER NOT NULL,
    PRIMARY KEY(from_id, to_id, kind)
) WITHOUT ROWID;
CREATE INDEX lineage_edge_to ON lineage_edge(to_id);
-- Lineage nodes joined to the runs they name or the user linked them to.
CREATE TABLE lineage_link(
    node_id     INTEGER NOT NULL,
    run_id      INTEGER NOT NULL,
    origin      TEXT NOT NULL,          -- how: 'mlflow-run-id', 'uri', 'name', 'user'
    PRIMARY KEY(node_id, run_id)
) WITHOUT ROWID;
CREATE INDEX lineage_link_run ON lineage_link(run_id);
)sql";

// Job lifecycle (goodput): what a job log says happened when, attached to a run. Phases have a start
// and an end; instants (job start/end, step start, interruption, restart) have end_ns NULL. Start and
// end entries of one phase are paired by the importer, so a row is always a whole phase.
static constexpr std::string_view kMigration9 = R"sql(
CREATE TABLE lifecycle_event(
    run_id      INTEGER NOT NULL,
    source_id   INTEGER NOT NULL,
    kind        TEXT NOT NULL,          -- 'job_start' | 'job_end' | 'step' | 'interruption' | 'restart' | phases:
                                        -- 'provisioning' | 'accelerator_init' | 'training_prep' | 'data_loading' |
                                        -- 'checkpoint_save' | 'checkpoint_restore' | 'custom'
    start_ns    INTEGER NOT NULL,       -- epoch ns
    end_ns      INTEGER,                -- phases only
    step        INTEGER,                -- step: its count; checkpoints: the last step they hold
    label       TEXT,                   -- custom: its type; interruption: the reason given
    line        INTEGER                 -- where in the source (1-based)
);
CREATE INDEX lifecycle_event_run ON lifecycle_event(run_id, start_ns);
)sql";

// LLM serving (vLLM's serving benchmark results, request logs): one row per request, attached to a
// run, in the order of the run's sources. Texts that repeat (model, endpoint, status) are interned in
// serving_label, apart from `string` so that a request log may share a run with metric series.
static constexpr std::string_view kMigration10 = R"sql(
CREATE TABLE serving_label(
    id          INTEGER PRIMARY KEY,
    text        TEXT NOT NULL UNIQUE
);
CREATE TABLE serving_request(
    run_id      INTEGER NOT NULL,
    seq         INTEGER NOT NULL,       -- 0, 1, ... per run, in the order the requests were read
    source_id   INTEGER NOT NULL,
    start_ns    INTEGER,                -- epoch ns the request was sent; NULL when the input does not say
    latency_ns  INTEGER,                -- end-to-end latency; NULL when unknown
    ttft_ns     INTEGER,                -- time to first token; NULL when unknown
    input_tokens INTEGER,               -- prompt length
    output_tokens INTEGER,
    ok          INTEGER NOT NULL,       -- 1: succeeded, 0: failed
    status_id   INTEGER,                -- serving_label: the status or error as written
    model_id    INTEGER,                -- serving_label
    endpoint_id INTEGER,                -- serving_label
    itl         BLOB,                   -- inter-token latencies, int64 little-endian ns each (vLLM's itls)
    PRIMARY KEY(run_id, seq)
) WITHOUT ROWID;
)sql";

// Launch <-> GPU-op links by correlation id: instead of an index over every slice with a corr (a
// fifth of the writer's time on an Nsight import, its entries landing all over the index), one row
// per run of TraceSink::kCorrTileSlices consecutive slices with a corr on a track: the range of
// their starts and of their corrs. A slice with corr c on track t lies inside a tile of t whose corr
// range holds c, so a lookup reads the few tiles that may hold c and scans their slices on the
// (track, ts) key. Tiles of a track whose corrs rise with time (a thread's launches, a stream's ops)
// do not overlap: a lookup reads one or two per track whose corrs span the one sought. Existing
// slices get tiles of 1024, as the import makes them.
static constexpr std::string_view kMigration11 = R"sql(
CREATE TABLE slice_corr_tile(
    track_id    INTEGER NOT NULL,
    first_ts    INTEGER NOT NULL,
    last_ts     INTEGER NOT NULL,
    min_corr    INTEGER NOT NULL,
    max_corr    INTEGER NOT NULL,
    PRIMARY KEY(track_id, first_ts, last_ts, min_corr, max_corr)
) WITHOUT ROWID;
INSERT OR IGNORE INTO slice_corr_tile
SELECT track_id, min(ts), max(ts), min(corr), max(corr)
FROM (SELECT track_id, ts, corr, (row_number() OVER (PARTITION BY track_id ORDER BY ts, id) - 1) / 1024 AS tile
      FROM slice WHERE corr IS NOT NULL)
GROUP BY track_id, tile;
DROP INDEX IF EXISTS slice_corr;
)sql";

// The public views (docs/sql.md): the contract `plumb query` and other tools read, with named, typed
// columns in ns and bytes and interned strings resolved to text. The tables above may change; a view
// keeps its columns (a new column may be added; removing or changing one needs a new view name, e.g.
// kernels_v2, and a migration that adds it). A view is replaced only by a later migration.
static constexpr std::string_view kMigration12 = R"sql(
CREATE VIEW runs AS
SELECT r.id AS run_id, r.key AS key, r.name AS name, r.path AS path, r.parent_run_id AS parent_run_id,
       r.group_name AS group_name, r.status AS status, r.start_ns AS start_ns, r.end_ns AS end_ns,
       r.created_at_ns AS created_at_ns, r.metadata AS metadata
FROM run r;

CREATE VIEW traces AS
SELECT t.id AS trace_id, t.run_id AS run_id, r.name AS run_name, t.source_id AS source_id,
       src.path AS source_path, t.format AS format, t.name AS name, t.rank AS rank,
       t.world_size AS world_size, t.base_time_ns AS base_time_ns, t.start_ns AS start_ns,
       t.end_ns AS end_ns, t.end_ns - t.start_ns AS dur_ns, t.event_count AS event_count,
       t.slice_count AS slice_count, t.kernel_count AS kernel_count, t.gpu_op_count AS gpu_op_count,
       t.flow_count AS flow_count, t.counter_count AS counter_count, t.metadata AS metadata
FROM trace t LEFT JOIN run r ON r.id = t.run_id LEFT JOIN source src ON src.id = t.source_id;

CREATE VIEW slices AS
SELECT k.trace_id AS trace_id, s.id AS slice_id, s.track_id AS track_id, k.kind AS track_kind,
       k.name AS track_name, p.pid AS pid, p.name AS process_name, k.tid AS tid, s.ts AS ts_ns,
       s.dur AS dur_ns, s.ts + s.dur AS end_ns, s.depth AS depth, n.str AS name, c.str AS category,
       s.corr AS correlation, s.ext_id AS external_id, s.seq_nr AS sequence_number, s.ev_idx AS ev_idx,
       s.rf_id AS record_function_id, a.json AS args
FROM slice s JOIN track k ON k.id = s.track_id LEFT JOIN process p ON p.id = k.process_id
     LEFT JOIN string n ON n.id = s.name_id LEFT JOIN string c ON c.id = s.cat_id
     LEFT JOIN args a ON a.id = s.args_id;

CREATE VIEW gpu_ops AS
SELECT k.trace_id AS trace_id, s.id AS slice_id, s.track_id AS track_id, p.device_index AS device,
       k.stream AS stream,
       CASE c.str WHEN 'kernel' THEN 'kernel' WHEN 'gpu_memcpy' THEN 'memcpy' WHEN 'gpu_memset' THEN 'memset'
                  ELSE 'graph' END AS kind,
       n.str AS name, s.ts AS ts_ns, s.dur AS dur_ns, s.ts + s.dur AS end_ns, s.corr AS correlation,
       CASE WHEN c.str IN ('gpu_memcpy', 'gpu_memset') AND json_valid(a.json)
            THEN coalesce(json_extract(a.json, '$.bytes'), json_extract(a.json, '$.memcpy_details.size'))
       END AS bytes,
       a.json AS args
FROM slice s JOIN track k ON k.id = s.track_id LEFT JOIN process p ON p.id = k.process_id
     JOIN string c ON c.id = s.cat_id LEFT JOIN string n ON n.id = s.name_id
     LEFT JOIN args a ON a.id = s.args_id
WHERE k.kind = 'gpu_stream' AND c.str IN ('kernel', 'gpu_memcpy', 'gpu_memset', 'cuda_graph');

CREATE VIEW kernels AS
SELECT trace_id, slice_id, track_id, device, stream, name, ts_ns, dur_ns, end_ns, correlation, args
FROM gpu_ops WHERE kind = 'kernel';

CREATE VIEW steps AS
WITH profiler_track AS (
    SELECT k.trace_id, min(k.id) AS track_id
    FROM slice s JOIN track k ON k.id = s.track_id JOIN process p ON p.id = k.process_id
         JOIN string n ON n.id = s.name_id
    WHERE k.kind = 'thread' AND p.kind = 'cpu' AND s.dur > 0 AND n.str GLOB 'ProfilerStep#[0-9]*'
          AND NOT substr(n.str, 14) GLOB '*[^0-9]*'
    GROUP BY k.trace_id)
SELECT pt.trace_id AS trace_id, s.track_id AS track_id, CAST(substr(n.str, 14) AS INTEGER) AS step,
       n.str AS name, s.ts AS start_ns, s.ts + s.dur AS end_ns, s.dur AS dur_ns,
       'profiler_step' AS origin
FROM profiler_track pt JOIN slice s ON s.track_id = pt.track_id JOIN string n ON n.id = s.name_id
WHERE s.dur > 0 AND n.str GLOB 'ProfilerStep#[0-9]*' AND NOT substr(n.str, 14) GLOB '*[^0-9]*'
UNION ALL
SELECT k.trace_id, s.track_id, CAST(n.str AS INTEGER), n.str, s.ts, s.ts + s.dur, s.dur, 'steps_line'
FROM track k JOIN slice s ON s.track_id = k.id JOIN string n ON n.id = s.name_id
WHERE k.name = 'Steps' AND s.dur > 0 AND n.str GLOB '[0-9]*' AND NOT n.str GLOB '*[^0-9]*'
      AND k.trace_id NOT IN (SELECT trace_id FROM profiler_track);

CREATE VIEW counters AS
SELECT k.trace_id AS trace_id, c.track_id AS track_id, k.name AS name, p.pid AS pid,
       p.name AS process_name, c.ts AS ts_ns, c.value AS value
FROM counter c JOIN track k ON k.id = c.track_id LEFT JOIN process p ON p.id = k.process_id;

CREATE VIEW flows AS
WITH launch AS MATERIALIZED (
    SELECT k.trace_id AS trace_id, s.corr AS corr, s.track_id AS track_id, min(s.ts) AS ts
    FROM slice s JOIN track k ON k.id = s.track_id
    WHERE k.kind IN ('thread', 'cuda_api') AND s.corr IS NOT NULL
          AND coalesce(s.cat_id, -1) NOT IN (SELECT id FROM string WHERE str = 'cuda_sync')
    GROUP BY k.trace_id, s.corr),
op AS MATERIALIZED (
    SELECT k.trace_id AS trace_id, s.corr AS corr, s.track_id AS track_id, s.ts AS ts
    FROM slice s JOIN track k ON k.id = s.track_id
    WHERE s.corr IS NOT NULL
          AND (k.kind = 'gpu_stream' OR s.cat_id IN (SELECT id FROM string WHERE str = 'cuda_sync')))
SELECT f.trace_id AS trace_id, 'flow' AS kind, c.str AS category, f.flow_key AS flow_key,
       f.src_track AS src_track_id, f.src_ts AS src_ts_ns, f.dst_track AS dst_track_id, f.dst_ts AS dst_ts_ns
FROM flow f LEFT JOIN string c ON c.id = f.cat_id
UNION ALL
SELECT o.trace_id, 'correlation', NULL, o.corr, l.track_id, l.ts, o.track_id, o.ts
FROM op o JOIN launch l ON l.trace_id = o.trace_id AND l.corr = o.corr;

CREATE VIEW params AS
SELECT p.run_id AS run_id, r.name AS run_name, p.key AS key, p.value AS value, p.kind AS kind
FROM param p LEFT JOIN run r ON r.id = p.run_id;

CREATE VIEW metrics AS
SELECT m.run_id AS run_id, r.name AS run_name, k.str AS key, m.segment AS segment, m.step AS step,
       m.dup AS dup, m.wall_time_ns AS wall_time_ns, m.value AS value
FROM metric m LEFT JOIN run r ON r.id = m.run_id LEFT JOIN string k ON k.id = m.key_id;

CREATE VIEW lineage_nodes AS
SELECT id AS node_id, kind, type, key, name, uri, state, start_ns, end_ns, properties, source_id
FROM lineage_node;

CREATE VIEW lineage_edges AS
SELECT from_id AS from_node_id, to_id AS to_node_id, kind, properties, source_id FROM lineage_edge;

CREATE VIEW diagnostics AS
SELECT d.source_id AS source_id, src.path AS source_path, d.severity AS severity, d.code AS code,
       d.location AS location, d.message AS message, d.count AS count
FROM diagnostic d LEFT JOIN source src ON src.id = d.source_id;
)sql";

// Accelerators other than NVIDIA's (analysis/devicebackend.h): a trace's device type, and the table of
// categories by role that the views read instead of naming CUDA's categories. Slices keep the category
// the file wrote (mtia_ccp_events, xpu_runtime...); device_category says what each is. Its rows are the
// C++ table's (backendCategories(); the devicebackend test checks that they agree): a change there
// appends a migration. Traces already here: 'rocm' when a runtime call is named hip*, 'cuda' when
// they have GPU ops, else unknown.
static constexpr std::string_view kMigration13 = R"sql(
ALTER TABLE trace ADD COLUMN device_type TEXT;  -- 'cuda' | 'rocm' | 'mtia' | 'xpu' | 'privateuse1'; NULL: none known
CREATE TABLE device_category(
    category    TEXT PRIMARY KEY,       -- as the profiler writes it
    role        TEXT NOT NULL,          -- 'kernel' | 'memcpy' | 'memset' | 'graph' | 'device_annotation' |
                                        -- 'runtime' | 'driver' | 'sync' | 'none'
    backend     TEXT,                   -- the backend it is unique to; NULL: shared (CUDA, ROCm, XPU...)
    memory_prefix TEXT                  -- device ops of the category named with it move memory (MTIA: dma)
) WITHOUT ROWID;
INSERT INTO device_category(category, role, backend, memory_prefix) VALUES
    ('kernel', 'kernel', NULL, NULL), ('gpu_memcpy', 'memcpy', NULL, NULL), ('gpu_memset', 'memset', NULL, NULL),
    ('gpu_user_annotation', 'device_annotation', NULL, NULL), ('cuda_runtime', 'runtime', NULL, NULL),
    ('cuda_driver', 'driver', NULL, NULL), ('cuda_sync', 'sync', 'cuda', NULL),
    ('cuda_graph', 'graph', 'cuda', NULL), ('mtia_ccp_events', 'kernel', 'mtia', 'dma'),
    ('mtia_runtime', 'runtime', 'mtia', NULL), ('mtia_insight', 'none', 'mtia', NULL),
    ('mtia_counters', 'none', 'mtia', NULL), ('xpu_runtime', 'runtime', 'xpu', NULL),
    ('xpu_driver', 'driver', 'xpu', NULL), ('xpu_sync', 'sync', 'xpu', NULL),
    ('privateuse1_runtime', 'runtime', 'privateuse1', NULL), ('privateuse1_driver', 'driver', 'privateuse1', NULL);
UPDATE trace SET device_type = CASE
    WHEN EXISTS (SELECT 1 FROM slice s JOIN track k ON k.id = s.track_id
                 WHERE k.trace_id = trace.id AND k.kind = 'cuda_api'
                       AND s.name_id IN (SELECT id FROM string WHERE str GLOB 'hip*')) THEN 'rocm'
    WHEN gpu_op_count > 0 THEN 'cuda' END;

DROP VIEW traces;
CREATE VIEW traces AS
SELECT t.id AS trace_id, t.run_id AS run_id, r.name AS run_name, t.source_id AS source_id,
       src.path AS source_path, t.format AS format, t.name AS name, t.rank AS rank,
       t.world_size AS world_size, t.base_time_ns AS base_time_ns, t.start_ns AS start_ns,
       t.end_ns AS end_ns, t.end_ns - t.start_ns AS dur_ns, t.event_count AS event_count,
       t.slice_count AS slice_count, t.kernel_count AS kernel_count, t.gpu_op_count AS gpu_op_count,
       t.flow_count AS flow_count, t.counter_count AS counter_count, t.metadata AS metadata,
       t.device_type AS device_type
FROM trace t LEFT JOIN run r ON r.id = t.run_id LEFT JOIN source src ON src.id = t.source_id;

DROP VIEW kernels;
DROP VIEW gpu_ops;
CREATE VIEW gpu_ops AS
SELECT k.trace_id AS trace_id, s.id AS slice_id, s.track_id AS track_id, p.device_index AS device,
       k.stream AS stream,
       CASE WHEN d.role = 'kernel' AND d.memory_prefix IS NOT NULL
                 AND substr(n.str, 1, length(d.memory_prefix)) = d.memory_prefix THEN 'memcpy'
            WHEN d.role IN ('kernel', 'memcpy', 'memset') THEN d.role ELSE 'graph' END AS kind,
       n.str AS name, s.ts AS ts_ns, s.dur AS dur_ns, s.ts + s.dur AS end_ns, s.corr AS correlation,
       CASE WHEN d.role IN ('memcpy', 'memset') AND json_valid(a.json)
            THEN coalesce(json_extract(a.json, '$.bytes'), json_extract(a.json, '$.memcpy_details.size'))
       END AS bytes,
       a.json AS args
FROM slice s JOIN track k ON k.id = s.track_id LEFT JOIN process p ON p.id = k.process_id
     JOIN string c ON c.id = s.cat_id JOIN device_category d ON d.category = c.str
     LEFT JOIN string n ON n.id = s.name_id LEFT JOIN args a ON a.id = s.args_id
WHERE k.kind = 'gpu_stream' AND d.role IN ('kernel', 'memcpy', 'memset', 'graph');

CREATE VIEW kernels AS
SELECT trace_id, slice_id, track_id, device, stream, name, ts_ns, dur_ns, end_ns, correlation, args
FROM gpu_ops WHERE kind = 'kernel';

DROP VIEW flows;
CREATE VIEW flows AS
WITH sync_cat AS MATERIALIZED (
    SELECT s.id FROM string s JOIN device_category d ON d.category = s.str WHERE d.role = 'sync'),
launch AS MATERIALIZED (
    SELECT k.trace_id AS trace_id, s.corr AS corr, s.track_id AS track_id, min(s.ts) AS ts
    FROM slice s JOIN track k ON k.id = s.track_id
    WHERE k.kind IN ('thread', 'cuda_api') AND s.corr IS NOT NULL
          AND coalesce(s.cat_id, -1) NOT IN (SELECT id FROM sync_cat)
    GROUP BY k.trace_id, s.corr),
op AS MATERIALIZED (
    SELECT k.trace_id AS trace_id, s.corr AS corr, s.track_id AS track_id, s.ts AS ts
    FROM slice s JOIN track k ON k.id = s.track_id
    WHERE s.corr IS NOT NULL AND (k.kind = 'gpu_stream' OR s.cat_id IN (SELECT id FROM sync_cat)))
SELECT f.trace_id AS trace_id, 'flow' AS kind, c.str AS category, f.flow_key AS flow_key,
       f.src_track AS src_track_id, f.src_ts AS src_ts_ns, f.dst_track AS dst_track_id, f.dst_ts AS dst_ts_ns
FROM flow f LEFT JOIN string c ON c.id = f.cat_id
UNION ALL
SELECT o.trace_id, 'correlation', NULL, o.corr, l.track_id, l.ts, o.track_id, o.ts
FROM op o JOIN launch l ON l.trace_id = o.trace_id AND l.corr = o.corr;
)sql";

// Per-step summaries, written when a trace is imported (analysis/tracesummary.h; docs/sql.md): what the
// doctor, the report and a job's merge read instead of the events. Rows of step -1 cover the whole trace.
// Workspaces from before get theirs at their next import or when the window opens them (rows of another
// version are rewritten the same way).
static constexpr std::string_view kMigration14 = R"sql(
CREATE TABLE trace_summary(
    trace_id    INTEGER PRIMARY KEY,    -- trace.id
    version     INTEGER NOT NULL,       -- of the analyses that wrote it; another version is rewritten
    mode        TEXT NOT NULL,          -- the GPU ops counted: 'every'
    steps       INTEGER NOT NULL,       -- rows of step_summary other than step -1
    report      BLOB NOT NULL           -- the doctor's report of the trace alone (internal encoding)
);
CREATE TABLE step_summary(
    trace_id    INTEGER NOT NULL,
    step        INTEGER NOT NULL,       -- 0, 1, ... in start order; -1: the whole trace
    name        TEXT,                   -- ProfilerStep#N, ...; NULL for step -1
    start_ns    INTEGER NOT NULL,       -- step time: from the end of the step before (trace time)
    end_ns      INTEGER NOT NULL,
    gpu_ops     INTEGER NOT NULL,       -- the GPU window: ops launched in the step (step -1: every op)
    gpu_start_ns INTEGER,
    gpu_end_ns  INTEGER,
    compute_ns  INTEGER NOT NULL,       -- unions within the window
    comm_ns     INTEGER NOT NULL,
    memory_ns   INTEGER NOT NULL,
    exposed_comm_ns INTEGER NOT NULL,
    exposed_memory_ns INTEGER NOT NULL,
    busy_ns     INTEGER NOT NULL,
    st_compute_ns INTEGER NOT NULL,     -- step time's eight parts (analysis/steptime.h); step -1: sums
    st_exposed_comm_ns INTEGER NOT NULL,
    st_exposed_memory_ns INTEGER NOT NULL,
    st_input_pipeline_ns INTEGER NOT NULL,
    st_synchronization_ns INTEGER NOT NULL,
    st_runtime_ns INTEGER NOT NULL,
    st_other_cpu_ns INTEGER NOT NULL,
    st_idle_ns  INTEGER NOT NULL,
    launched_ops INTEGER NOT NULL,      -- ops with a linked launch
    launch_delay_sketch BLOB,           -- their launch-to-start delays (ns), a quantile sketch
    PRIMARY KEY (trace_id, step)
) WITHOUT ROWID;
CREATE TABLE op_summary(
    trace_id    INTEGER NOT NULL,
    step        INTEGER NOT NULL,
    name_id     INTEGER NOT NULL,       -- string.id of the op's name
    kind        TEXT NOT NULL,          -- 'compute' | 'comm' | 'memory'
    count       INTEGER NOT NULL,
    total_ns    INTEGER NOT NULL,
    min_ns      INTEGER NOT NULL,
    max_ns      INTEGER NOT NULL,
    sketch      BLOB NOT NULL,          -- the durations (ns), a quantile sketch
    PRIMARY KEY (trace_id, step, name_id)
) WITHOUT ROWID;
CREATE TABLE stream_summary(
    trace_id    INTEGER NOT NULL,
    step        INTEGER NOT NULL,
    track_id    INTEGER NOT NULL,       -- the stream's track
    stream      INTEGER,                -- the CUDA stream id
    ops         INTEGER NOT NULL,
    busy_ns     INTEGER NOT NULL,
    host_wait_ns INTEGER NOT NULL,      -- idle between its ops, by cause (analysis/idlebreakdown.h)
    kernel_wait_ns INTEGER NOT NULL,
    other_idle_ns INTEGER NOT NULL,
    gaps        INTEGER NOT NULL,
    PRIMARY KEY (trace_id, step, track_id)
) WITHOUT ROWID;
CREATE TABLE collective_call(
    trace_id    INTEGER NOT NULL,
    slice_id    INTEGER NOT NULL,       -- the collective's kernel
    step        INTEGER NOT NULL,       -- the step whose time holds its start, -1 when none
    collective  TEXT NOT NULL,          -- 'allreduce', ..., else the kernel's name
    process_group TEXT,
    seq         INTEGER NOT NULL,       -- its place among the trace's calls in the same process group, from 0
    start_ns    INTEGER NOT NULL,
    end_ns      INTEGER NOT NULL,
    bytes       INTEGER NOT NULL,       -- 0 when unknown
    PRIMARY KEY (trace_id, slice_id)
) WITHOUT ROWID;

CREATE VIEW step_summaries AS
SELECT trace_id, step, name, start_ns, end_ns, end_ns - start_ns AS wall_ns, gpu_ops, gpu_start_ns,
       gpu_end_ns, compute_ns, comm_ns, memory_ns, exposed_comm_ns, exposed_memory_ns, busy_ns,
       st_compute_ns, st_exposed_comm_ns, st_exposed_memory_ns, st_input_pipeline_ns, st_synchronization_ns,
       st_runtime_ns, st_other_cpu_ns, st_idle_ns, launched_ops, launch_delay_sketch
FROM step_summary;
CREATE VIEW op_summaries AS
SELECT o.trace_id AS trace_id, o.step AS step, n.str AS name, o.kind AS kind, o.count AS count,
       o.total_ns AS total_ns, o.min_ns AS min_ns, o.max_ns AS max_ns, o.sketch AS sketch
FROM op_summary o LEFT JOIN string n ON n.id = o.name_id;
CREATE VIEW stream_summaries AS
SELECT trace_id, step, track_id, stream, ops, busy_ns, host_wait_ns, kernel_wait_ns, other_idle_ns, gaps
FROM stream_summary;
CREATE VIEW collective_calls AS
SELECT trace_id, slice_id, step, collective, process_group, seq, start_ns, end_ns, end_ns - start_ns AS dur_ns,
       bytes
FROM collective_call;
)sql";

// A job merged from the shards of a sharded import (`plumb merge`; job/jobmerge.h, docs/cluster.md):
// every rank the job has or should have, where its events are, and the collectives matched across
// ranks. The ranks' trace rows and summaries are copied from the shards; their events stay there.
static constexpr std::string_view kMigration15 = R"sql(
CREATE TABLE job_rank(
    rank        INTEGER PRIMARY KEY,
    status      TEXT NOT NULL,          -- 'merged' | 'missing' (no shard has it) | 'failed' (its import failed)
    trace_id    INTEGER,                -- trace.id here, when merged
    trace_path  TEXT,                   -- the rank's trace file, as its shard imported it
    shard_path  TEXT,                   -- the shard workspace that holds its events
    shard_trace_id INTEGER,             -- its trace.id there
    verdict     TEXT,                   -- its doctor's verdict, its run weighed in: the component
    headline    TEXT,                   -- and the headline
    message     TEXT                    -- why it is missing or failed
);
CREATE TABLE job_collective(
    match_key   TEXT NOT NULL,          -- the process group; 'op:' || collective when the trace names none
    seq         INTEGER NOT NULL,       -- the call's place among the rank's calls of that key, from 0
    collective  TEXT NOT NULL,
    step        INTEGER NOT NULL,       -- the step of the call on the rank that arrived last (-1: none)
    ranks       INTEGER NOT NULL,       -- ranks that made the call
    last_rank   INTEGER NOT NULL,       -- the rank that arrived last: its kernel was the shortest
    wait_ns     INTEGER NOT NULL,       -- the others' mean wait for it: their kernels' mean minus its
    max_wait_ns INTEGER NOT NULL,       -- the longest kernel minus its
    PRIMARY KEY (match_key, seq)
) WITHOUT ROWID;
)sql";

const std::vector<std::string_view> &schemaMigrations()
{
    static const std::vector<std::string_view> migrations = { kMigration1, kMigration2, kMigration3,
        kMigration4, kMigration5, kMigration6, kMigration7, kMigration8, kMigration9, kMigration10,
        kMigration11, kMigration12, kMigration13, kMigration14, kMigration15 };
    return migrations;
}

} // namespace plumb
