// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

namespace plumb {

// Metric logs as tables: CSV (RFC 4180; ',' ';' or tab, detected) and JSON lines (one object per
// line, nested members named "a/b"), in wide form (a row per step, a column per metric: Lightning's
// and Keras's CSVLogger, Hugging Face's JSONL, benchmark logs) or long form (a row per value: run,
// key, step, value, time, as MLflow and W&B exports have it).
//
// Column roles come from TabularLayout::detect() (core, so that the import dialog shows the same),
// corrected by the user's ImportOptions::tabular. Rows map onto MetricSink: a run per value of the
// run column (key "tabular:<file>#<value>", named by the value, grouped under the file's name), or
// without one the file's run ("tabular:<file>", or the folder's run when a params file sits beside
// it: see FolderRun); a series per metric column (or key); the step from the step column, else the
// row's index in its run; the wall time from the time column (epoch s/ms/us/ns, ISO-8601), else 0.
// Param columns set params of their run. An empty cell is a value not logged at that row; nan and
// inf are values; a cell that is no number is skipped and counted (a diagnostic names its line and
// column). A step that goes back starts a new segment.
//
// A request log of LLM serving (a latency or TTFT column and another serving column: tokens, status,
// model, endpoint) is read by RequestLogWriter into serving requests instead of metric points.
//
// A row with more or fewer fields than the header (or a JSON line that is no object) is fatal: the
// error names the file, line and byte, and nothing of the file is kept. A last line cut short (no
// line end, the wrong field count or broken JSON: a writer still running) is left for a later import.
// Logs are only appended to: a file that grew continues from the byte after its last complete line
// (resumable(); the layout is detected again from the file's head), so live mode reads only the new
// lines. A file that cannot be continued (gzip, no step column, a last line without a line end that
// was imported, or one replaced rather than appended to) is read again whole, and skips, per
// series, the points stored before.
class TabularImporter final : public Importer {
public:
    [[nodiscard]] QString id() const override { return QStringLiteral("tabular"); }
    [[nodiscard]] QString displayName() const override
    {
        return QStringLiteral("CSV/JSONL metric or request log");
    }
    [[nodiscard]] int version() const override { return 2; } // 2: request logs
    [[nodiscard]] int sniff(QByteArrayView head, const QString &fileName) const override;
    void read(ImportContext &ctx) const override;
    // Its run is that of its path (or folder): the same bytes elsewhere are another run's.
    [[nodiscard]] bool locationMatters() const override { return true; }
    [[nodiscard]] bool resumable() const override { return true; }
};

} // namespace plumb
