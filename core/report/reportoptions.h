// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace plumb {

// What a review report holds and how it is laid out: what `plumb report`'s options, a template file
// and the Export Report dialog fill in, and what buildReport() and the renderers read.
struct ReportOptions {
    enum class PageSize { A4, Letter };

    QString title = QStringLiteral("Performance review");
    QString author;
    QStringList runs; // run ids or names (traces' runs or experiment runs); empty: every run
    QString baseline; // run id or name; empty: the first run
    QStringList sections; // section ids in report order; empty: every section (reportSectionIds())
    PageSize pageSize = PageSize::A4;
    QString theme = QStringLiteral("light");
    int dpi = 150; // PNG pages
    QDateTime date; // on the title page; invalid: reportDate()
};

// The report's date: $SOURCE_DATE_EPOCH when set (reproducible builds' convention), else now.
[[nodiscard]] QDateTime reportDate();

// Reads a template (a small options file a team keeps in its repo) into `options`: YAML (or JSON, read
// alike by YamlDocument), a map such as
//     # comment
//     title: Launch readiness review
//     sections: [summary, steps, kernels]      (or one "- id" per line below "sections:")
//     page_size: Letter
// Keys: title, author, runs, baseline, sections (order is report order), page_size (A4 | Letter),
// theme (light), dpi (PNG pages, 36-600). Only the keys present are set. Returns an empty string, else
// the error as "file:line:column: message".
[[nodiscard]] QString applyReportTemplate(const QString &path, ReportOptions &options);
// The same over the file's text (`name` in messages).
[[nodiscard]] QString applyReportTemplateText(
    const QByteArray &text, const QString &name, ReportOptions &options);

[[nodiscard]] QString pageSizeName(ReportOptions::PageSize size);

} // namespace plumb
