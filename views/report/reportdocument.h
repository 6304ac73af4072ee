// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "report/reportmodel.h"
#include "report/reportoptions.h"

#include <QSizeF>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

class QPainter;

namespace plumb {

// A review report laid out on pages: a title page, the table of contents, the executive summary,
// each section on pages of its own, the appendix (what was left out and why). Text is set in one
// family (DejaVu Sans) at a few sizes; tables take the page's width and split between rows, their
// header repeated; figures are drawn by their renderers (reportfigures.h) at the page's width.
// Coordinates are points (1/72 inch): a PDF page gets vectors and selectable text, a PNG page is the
// same drawing scaled to the chosen DPI. Every page but the title page has the report's title and
// the section in its header and "Page N of M" in its footer.
class ReportDocument {
public:
    ReportDocument(ReportModel model, ReportOptions::PageSize pageSize);
    ~ReportDocument();

    [[nodiscard]] int pageCount() const { return int(m_pages.size()); }
    [[nodiscard]] QSizeF pageSize() const { return m_pageSize; } // points
    [[nodiscard]] const ReportModel &model() const { return *m_model; }
    // The page (0-based) each section starts on, in table-of-contents order (summary, sections, appendix).
    [[nodiscard]] const std::vector<std::pair<QString, int>> &contents() const { return m_contents; }
    [[nodiscard]] int figureCount() const { return m_figures; }

    // Paints page `page` in points from (0, 0), on a white page.
    void paintPage(QPainter &painter, int page) const;

    // Writes every page to a PDF; `progress(page)` is called before each. False with the reason in
    // `error` when the file cannot be written.
    bool writePdf(const QString &path, QString *error, const std::function<bool(int)> &progress = {}) const;
    // Writes every page as a PNG at `dpi`: "review.png" becomes review-01.png, review-02.png...
    // Returns the files written (empty, with `error`, on failure).
    [[nodiscard]] QStringList writePngs(
        const QString &path, int dpi, QString *error, const std::function<bool(int)> &progress = {}) const;
    // The name of page `page` (0-based) of a PNG report written to `path`.
    [[nodiscard]] static QString pngPagePath(const QString &path, int page, int pages);

private:
    class Layout;
    using Draw = std::function<void(QPainter &)>;
    struct Page {
        QString section; // the running header
        std::vector<Draw> draws;
    };

    std::shared_ptr<const ReportModel> m_model; // the closures of m_pages point into it
    QSizeF m_pageSize;
    std::vector<Page> m_pages;
    std::vector<std::pair<QString, int>> m_contents;
    int m_figures = 0;
};

// Lays `model` out and writes it to `path`: a PDF, or PNG pages when the suffix is .png (see
// writePngs()). Returns the files written; empty, with the reason in `error`, on failure.
[[nodiscard]] QStringList writeReport(ReportModel model, const ReportOptions &options, const QString &path,
    QString *error, const std::function<bool(int page, int pages)> &progress = {}, int *pages = nullptr);

} // namespace plumb
