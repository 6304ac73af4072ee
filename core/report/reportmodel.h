// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/histogram.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <any>
#include <cstdint>
#include <utility>
#include <vector>

namespace plumb {

// What goes into a review report, as plain values: text, tables and figures whose data the views'
// renderers draw (views/report). Built by buildReport() (reportbuilder.h) from the analyses the GUI
// and the CLI show; nothing here knows about pages or painting.

struct ReportTable {
    QStringList header;
    QList<QStringList> rows;
    std::vector<bool> numeric; // per column: right-aligned
    QString caption; // above the table
};

// A figure: `kind` picks the renderer (views/report/reportfigures.h), `data` holds what it draws
// (the type each kind expects is documented beside the kind's builder). `aspect` is height / width.
struct ReportFigure {
    QString kind;
    QString caption; // below the figure
    double aspect = 0.5;
    std::any data;
};

struct ReportBlock {
    enum class Kind { Heading, Paragraph, Bullets, Table, Figure };
    Kind kind = Kind::Paragraph;
    QString text; // heading or paragraph
    QStringList items; // bullets
    ReportTable table;
    ReportFigure figure;

    [[nodiscard]] static ReportBlock heading(const QString &text);
    [[nodiscard]] static ReportBlock paragraph(const QString &text);
    [[nodiscard]] static ReportBlock bullets(const QStringList &items);
    [[nodiscard]] static ReportBlock tableOf(ReportTable table);
    [[nodiscard]] static ReportBlock figureOf(ReportFigure figure);
};

struct ReportSection {
    QString id;
    QString title;
    std::vector<ReportBlock> blocks;
    [[nodiscard]] int count(ReportBlock::Kind kind) const;
    [[nodiscard]] int countFigures(const QString &kind) const;
};

struct ReportModel {
    QString title;
    QString author;
    QString date; // yyyy-MM-dd
    QString workspace; // the workspace file
    QStringList runs; // the runs covered, "12 name"
    QStringList traces; // the traces covered, "3 name (run 12)"
    ReportSection summary; // the executive summary (id "summary")
    std::vector<ReportSection> sections; // in the order asked for, those with data
    QStringList appendix; // what was left out and why, one sentence each

    [[nodiscard]] const ReportSection *section(const QString &id) const;
};

// Figure data of the kinds that are not an analysis's own value struct.
struct HistogramFigure {
    Histogram histogram;
    QString quantity; // "GPU duration"
    QString title;
    std::vector<std::pair<QString, int64_t>> markers; // name, ns
};

struct TimelineFigure {
    QString workspacePath;
    int64_t traceId = 0;
    int64_t fromNs = 0; // trace time
    int64_t toNs = 0;
};

struct ScalarFigure {
    struct Line {
        QString name;
        std::vector<double> x; // step
        std::vector<double> y;
    };
    QString tag;
    std::vector<Line> lines;
};

} // namespace plumb
