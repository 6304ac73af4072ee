// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/reportdocument.h"

#include "report/reportfigures.h"

#include <QDir>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>

#include <algorithm>
#include <cmath>

namespace plumb {

namespace {

// Page geometry (points).
constexpr double kMarginX = 56;
constexpr double kTop = 66;
constexpr double kBottomMargin = 62;
constexpr double kHeaderY = 34;
constexpr double kFooterOffset = 34; // from the bottom edge

// Spacing.
constexpr double kParagraphGap = 7;
constexpr double kBlockGap = 12;
constexpr double kCellPadX = 4;
constexpr double kCellPadY = 2.5;
constexpr int kMaxCellLines = 3;
constexpr double kMaxKeptWordPt = 90; // longer words (kernel names, paths) may break anywhere
constexpr double kRowLabelShare = 0.26;
constexpr int kMaxCoveredLines = 16; // runs or traces listed on the title page
constexpr double kKeepWithHeading = 90; // a heading starts a page rather than end one with less room below
constexpr double kMaxFigureHeight = 560;

const QColor kText(0x1f, 0x23, 0x28);
const QColor kMuted(0x66, 0x6d, 0x75);
const QColor kAccent(0x2b, 0x5c, 0x8a);
const QColor kRule(0xc9, 0xcf, 0xd6);
const QColor kHeaderFill(0xe6, 0xed, 0xf5);
const QColor kStripe(0xf5, 0xf7, 0xfa);

QFont font(int pixels, bool bold = false, bool italic = false)
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(pixels); // pixels are points on the page: metrics do not depend on a device's DPI
    f.setBold(bold);
    f.setItalic(italic);
    f.setHintingPreference(QFont::PreferNoHinting);
    f.setStyleStrategy(
        QFont::PreferNoShaping); // no ligatures: "diff" stays four letters when copied or searched
    return f;
}

struct Fonts {
    QFont title = font(28, true);
    QFont subtitle = font(13);
    QFont h1 = font(18, true);
    QFont h2 = font(12, true);
    QFont body = font(10);
    QFont small = font(8);
    QFont tableBody = font(8);
    QFont tableHead = font(8, true);
    QFont caption = font(8, false, true);
    QFont chart = font(8);
};

const Fonts &fonts()
{
    static const Fonts f;
    return f;
}

double textHeight(const QFont &f, double width, const QString &text, int flags = Qt::TextWordWrap)
{
    return QFontMetricsF(f)
        .boundingRect(QRectF(0, 0, width, 1e6), flags | Qt::AlignLeft | Qt::AlignTop, text)
        .height();
}

// Text that wraps at spaces when it has them, anywhere otherwise (kernel names), cut to
// kMaxCellLines lines with an ellipsis.
QString fitCell(const QFont &f, double width, const QString &text, int *flags)
{
    const QFontMetricsF fm(f);
    *flags = Qt::TextWordWrap;
    for (const QString &word : text.split(u' ', Qt::SkipEmptyParts))
        if (fm.horizontalAdvance(word) > width) {
            *flags |= Qt::TextWrapAnywhere; // a kernel name, a path: no word breaks to wait for
            break;
        }
    // What kMaxCellLines lines measure: the last line is the font's height, not a line spacing,
    // and that is taller here (lineSpacing * 3 cut the cells at two lines).
    const double maxHeight
        = textHeight(f, 1e6, QStringList(kMaxCellLines, QStringLiteral("X")).join(u'\n'), 0) + 0.5;
    if (textHeight(f, width, text, *flags) <= maxHeight)
        return text;
    QString t = fm.elidedText(text, Qt::ElideRight, width * kMaxCellLines * 0.92);
    while (t.size() > 4 && textHeight(f, width, t, *flags) > maxHeight)
        t = fm.elidedText(text, Qt::ElideRight, fm.horizontalAdvance(t) * 0.9);
    return t;
}

} // namespace

// Places blocks top to bottom on pages, recording what each page draws.
class ReportDocument::Layout {
public:
    Layout(ReportDocument &doc)
        : d(doc)
        , width(doc.m_pageSize.width() - 2 * kMarginX)
        , bottom(doc.m_pageSize.height() - kBottomMargin)
    {
    }

    ReportDocument &d;
    const double width;
    const double bottom;
    double y = kTop;
    QString section;

    void newPage()
    {
        d.m_pages.push_back({ section, {} });
        y = kTop;
    }
    void draw(Draw fn) { d.m_pages.back().draws.push_back(std::move(fn)); }
    void ensure(double h)
    {
        if (y + h > bottom && y > kTop)
            newPage();
    }

    void sectionTitle(const QString &title)
    {
        section = title;
        newPage();
        const QFont &f = fonts().h1;
        const double h = textHeight(f, width, title);
        const QRectF r(kMarginX, y, width, h);
        draw([r, title, f](QPainter &p) {
            p.setFont(f);
            p.setPen(kAccent);
            p.drawText(r, Qt::TextWordWrap, title);
            p.setPen(QPen(kAccent, 1.2));
            p.drawLine(QPointF(r.left(), r.bottom() + 5), QPointF(r.right(), r.bottom() + 5));
        });
        y += h + 18;
    }

    void heading(const QString &text)
    {
        const QFont &f = fonts().h2;
        const double h = textHeight(f, width, text);
        ensure(h + kKeepWithHeading);
        const QRectF r(kMarginX, y + 4, width, h);
        draw([r, text, f](QPainter &p) {
            p.setFont(f);
            p.setPen(kText);
            p.drawText(r, Qt::TextWordWrap, text);
        });
        y += h + 4 + kParagraphGap;
    }

    void paragraph(const QString &text, const QFont &f = fonts().body, const QColor &colour = kText)
    {
        const double h = textHeight(f, width, text);
        ensure(h);
        const QRectF r(kMarginX, y, width, h);
        draw([r, text, f, colour](QPainter &p) {
            p.setFont(f);
            p.setPen(colour);
            p.drawText(r, Qt::TextWordWrap, text);
        });
        y += h + kParagraphGap;
    }

    void bullets(const QStringList &items)
    {
        const QFont &f = fonts().body;
        constexpr double indent = 14;
        for (const QString &item : items) {
            const double h = textHeight(f, width - indent, item);
            ensure(h);
            const QRectF r(kMarginX + indent, y, width - indent, h);
            draw([r, item, f](QPainter &p) {
                p.setFont(f);
                p.setPen(kAccent);
                p.drawText(QPointF(r.left() - 11, r.top() + QFontMetricsF(f).ascent()), QStringLiteral("•"));
                p.setPen(kText);
                p.drawText(r, Qt::TextWordWrap, item);
            });
            y += h + 3;
        }
        y += kParagraphGap - 3;
    }

    std::vector<double> columnWidths(const ReportTable &t) const
    {
        const size_t n = size_t(t.header.size());
        const QFontMetricsF body(fonts().tableBody), head(fonts().tableHead);
        std::vector<double> natural(n, 0), minimum(n, 0);
        for (size_t c = 0; c < n; ++c) {
            for (const QString &word : t.header[qsizetype(c)].split(u' '))
                minimum[c] = std::max(minimum[c], head.horizontalAdvance(word) + 2 * kCellPadX);
            // Words of the cells stay whole where they are short (limits, kinds, states).
            for (const QStringList &row : t.rows)
                for (const QString &word : row.value(qsizetype(c)).split(u' ', Qt::SkipEmptyParts))
                    minimum[c] = std::max(
                        minimum[c], std::min(body.horizontalAdvance(word), kMaxKeptWordPt) + 2 * kCellPadX);
            natural[c] = std::max(natural[c], minimum[c]);
            natural[c] = std::max(minimum[c], head.horizontalAdvance(t.header[qsizetype(c)]) + 2 * kCellPadX);
            for (const QStringList &row : t.rows)
                natural[c]
                    = std::max(natural[c], body.horizontalAdvance(row.value(qsizetype(c))) + 2 * kCellPadX);
        }
        // The first column names the rows: it keeps up to kRowLabelShare of the width unwrapped.
        if (n > 1)
            minimum[0] = std::max(minimum[0], std::min(natural[0], width * kRowLabelShare));
        double total = 0;
        for (double w : natural)
            total += w;
        std::vector<double> w = natural;
        if (total <= width) {
            for (double &x : w) // spread what is left, so every table spans the text width
                x += (width - total) * x / total;
            return w;
        }
        // Too wide: every column gets its minimum (its longest short word: a header wraps at its
        // spaces, a number never does), then what is left goes to the text columns up to their natural
        // width (a name cut mid-word reads worse than a header on two lines), then to the numeric ones;
        // within each, shared evenly, a column that needs less than its share taking only what it needs
        // (a file name is whole beside a kernel name that takes the rest).
        double minimums = 0;
        for (double m : minimum)
            minimums += m;
        if (minimums > width) { // many columns: everything shrinks in proportion, text wraps anywhere
            for (size_t c = 0; c < n; ++c)
                w[c] = minimum[c] * width / minimums;
            return w;
        }
        w = minimum;
        double spare = width - minimums;
        auto isNumeric = [&](size_t c) { return c < t.numeric.size() && t.numeric[c]; };
        for (const bool numericPass : { false, true }) {
            std::vector<size_t> cols;
            for (size_t c = 0; c < n; ++c)
                if (isNumeric(c) == numericPass && natural[c] > w[c])
                    cols.push_back(c);
            std::sort(cols.begin(), cols.end(),
                [&](size_t a, size_t b) { return natural[a] - w[a] < natural[b] - w[b]; });
            for (size_t i = 0; i < cols.size() && spare > 0; ++i) {
                const double share = spare / double(cols.size() - i);
                const double given = std::min(share, natural[cols[i]] - w[cols[i]]);
                w[cols[i]] += given;
                spare -= given;
            }
        }
        return w;
    }

    void table(const ReportTable &t)
    {
        if (t.header.isEmpty())
            return;
        const std::vector<double> widths = columnWidths(t);
        struct Row {
            QStringList cells;
            std::vector<int> flags;
            double height = 0;
        };
        auto prepare = [&](const QStringList &cells, const QFont &f) {
            Row r;
            for (qsizetype c = 0; c < t.header.size(); ++c) {
                int flags = 0;
                const double w = widths[size_t(c)] - 2 * kCellPadX;
                r.cells << fitCell(f, w, cells.value(c), &flags);
                r.flags.push_back(flags);
                r.height = std::max(r.height, textHeight(f, w, r.cells.back(), flags));
            }
            r.height += 2 * kCellPadY;
            return r;
        };
        const Row header = prepare(t.header, fonts().tableHead);
        const QFont &captionFont = fonts().caption;
        const double captionHeight = t.caption.isEmpty() ? 0 : textHeight(captionFont, width, t.caption) + 3;
        const std::vector<bool> numeric = t.numeric;
        auto drawRow = [this, widths, numeric](
                           const Row &row, double top, const QFont &f, const QColor &fill, bool head) {
            const double x0 = kMarginX;
            const double w = width;
            draw([row, top, f, fill, head, widths, numeric, x0, w](QPainter &p) {
                if (fill.isValid())
                    p.fillRect(QRectF(x0, top, w, row.height), fill);
                p.setFont(f);
                p.setPen(kText);
                double x = x0;
                for (size_t c = 0; c < widths.size(); ++c) {
                    const bool right = c < numeric.size() && numeric[c];
                    const QRectF cell(x + kCellPadX, top + kCellPadY, widths[c] - 2 * kCellPadX,
                        row.height - 2 * kCellPadY);
                    p.drawText(cell, row.flags[c] | (right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop,
                        row.cells[qsizetype(c)]);
                    x += widths[c];
                }
                p.setPen(QPen(head ? kAccent : kRule, head ? 0.8 : 0.4));
                p.drawLine(QPointF(x0, top + row.height), QPointF(x0 + w, top + row.height));
            });
        };
        auto startPage = [&](bool continued) {
            if (!t.caption.isEmpty()) {
                const QString text = continued ? t.caption + QStringLiteral(" (continued)") : t.caption;
                const QRectF r(kMarginX, y, width, captionHeight);
                draw([r, text, captionFont](QPainter &p) {
                    p.setFont(captionFont);
                    p.setPen(kMuted);
                    p.drawText(r, Qt::TextWordWrap, text);
                });
                y += captionHeight;
            }
            drawRow(header, y, fonts().tableHead, kHeaderFill, true);
            y += header.height;
        };
        const Row first = t.rows.isEmpty() ? Row {} : prepare(t.rows.front(), fonts().tableBody);
        ensure(captionHeight + header.height + first.height);
        startPage(false);
        for (qsizetype i = 0; i < t.rows.size(); ++i) {
            const Row row = i == 0 ? first : prepare(t.rows[i], fonts().tableBody);
            if (y + row.height > bottom) {
                newPage();
                startPage(true);
            }
            drawRow(row, y, fonts().tableBody, i % 2 ? kStripe : QColor(), false);
            y += row.height;
        }
        y += kBlockGap;
    }

    void figure(const ReportFigure &f)
    {
        const QFont &captionFont = fonts().caption;
        const QString caption = QStringLiteral("Figure %1. %2").arg(++d.m_figures).arg(f.caption);
        const double captionHeight = textHeight(captionFont, width, caption);
        const double h = std::min(
            { width * reportFigureAspect(f), kMaxFigureHeight, bottom - kTop - captionHeight - 6 });
        ensure(h + captionHeight + 6);
        const QRectF r(kMarginX, y, width, h);
        const ReportFigure *figure = &f;
        draw([r, figure](QPainter &p) {
            p.save();
            renderReportFigure(p, r, *figure, fonts().chart);
            p.restore();
        });
        const QRectF c(kMarginX, y + h + 4, width, captionHeight);
        draw([c, caption, captionFont](QPainter &p) {
            p.setFont(captionFont);
            p.setPen(kMuted);
            p.drawText(c, Qt::TextWordWrap | Qt::AlignHCenter, caption);
        });
        y += h + 4 + captionHeight + kBlockGap;
    }

    void blocks(const std::vector<ReportBlock> &blocks)
    {
        for (const ReportBlock &b : blocks) {
            switch (b.kind) {
            case ReportBlock::Kind::Heading:
                heading(b.text);
                break;
            case ReportBlock::Kind::Paragraph:
                paragraph(b.text);
                break;
            case ReportBlock::Kind::Bullets:
                bullets(b.items);
                break;
            case ReportBlock::Kind::Table:
                table(b.table);
                break;
            case ReportBlock::Kind::Figure:
                figure(b.figure);
                break;
            }
        }
    }
};

ReportDocument::ReportDocument(ReportModel model, ReportOptions::PageSize pageSize)
    : m_model(std::make_shared<const ReportModel>(std::move(model)))
    , m_pageSize(QPageSize(pageSize == ReportOptions::PageSize::Letter ? QPageSize::Letter : QPageSize::A4)
                     .size(QPageSize::Point))
{
    const ReportModel &m = *m_model;
    Layout l(*this);

    // Title page.
    l.newPage();
    {
        const double w = l.width;
        const QString title = m.title;
        const double titleHeight = textHeight(fonts().title, w, title);
        const double top = 190;
        QStringList facts;
        if (!m.author.isEmpty())
            facts << QStringLiteral("Author: %1").arg(m.author);
        facts << QStringLiteral("Date: %1").arg(m.date) << QStringLiteral("Workspace: %1").arg(m.workspace);
        l.draw([=, this](QPainter &p) {
            p.fillRect(QRectF(0, 0, m_pageSize.width(), 12), kAccent);
            p.setFont(fonts().small);
            p.setPen(kMuted);
            p.drawText(QPointF(kMarginX, top - 28), QStringLiteral("PLUMB REVIEW REPORT"));
            p.setFont(fonts().title);
            p.setPen(kText);
            p.drawText(QRectF(kMarginX, top, w, titleHeight), Qt::TextWordWrap, title);
            p.setPen(QPen(kAccent, 2));
            p.drawLine(
                QPointF(kMarginX, top + titleHeight + 12), QPointF(kMarginX + 120, top + titleHeight + 12));
            p.setFont(fonts().subtitle);
            p.setPen(kText);
            double y = top + titleHeight + 40;
            for (const QString &f : facts) {
                p.drawText(QPointF(kMarginX, y), f);
                y += 20;
            }
        });
        l.y = top + titleHeight + 40 + 20 * double(facts.size()) + 24;
        // What the report covers, as much as fits the page.
        auto list = [&](const QString &heading, const QStringList &items) {
            if (items.isEmpty())
                return;
            l.paragraph(heading, fonts().h2);
            const double lineHeight = QFontMetricsF(fonts().small).lineSpacing() + 2;
            QStringList shown;
            // The runs leave room for the traces below them.
            const int room
                = std::max(2, std::min(int((l.bottom - 60 - l.y) / lineHeight) - 1, kMaxCoveredLines));
            for (const QString &item : items) {
                if (shown.size() == room - 1 && items.size() > room) {
                    shown << QStringLiteral("… and %1 more").arg(items.size() - shown.size());
                    break;
                }
                shown << item;
            }
            for (const QString &item : shown)
                l.paragraph(item, fonts().small, kMuted), l.y -= kParagraphGap - 2;
            l.y += 10;
        };
        list(QStringLiteral("Runs covered"), m.runs);
        list(QStringLiteral("Traces covered"), m.traces);
    }

    // The table of contents gets its page now and its entries once every section is placed.
    l.section = QStringLiteral("Contents");
    l.newPage();
    const int contentsPage = int(m_pages.size()) - 1;

    l.sectionTitle(QStringLiteral("1  %1").arg(m.summary.title));
    m_contents.emplace_back(m.summary.title, int(m_pages.size()) - 1);
    l.blocks(m.summary.blocks);
    int number = 2;
    for (const ReportSection &s : m.sections) {
        l.sectionTitle(QStringLiteral("%1  %2").arg(number++).arg(s.title));
        m_contents.emplace_back(s.title, int(m_pages.size()) - 1);
        l.blocks(s.blocks);
    }
    const QString appendix = QStringLiteral("Appendix: what is not in this report");
    l.sectionTitle(appendix);
    m_contents.emplace_back(appendix, int(m_pages.size()) - 1);
    if (m.appendix.isEmpty())
        l.paragraph(QStringLiteral("Every section asked for is in this report."));
    else
        l.bullets(m.appendix);
    l.paragraph(QStringLiteral(
                    "Made by Plumb %1 from the workspace %2. Times are the profilers' GPU and CPU times; GPU "
                    "windows run from the first GPU op's start to the last op's end, over every stream.")
                    .arg(QStringLiteral(PLUMB_VERSION), m.workspace),
        fonts().small, kMuted);

    // Contents: entries with dotted leaders to their page numbers.
    {
        std::vector<Draw> &draws = m_pages[size_t(contentsPage)].draws;
        const double w = l.width;
        double y = kTop;
        const QFont h1 = fonts().h1;
        draws.push_back([y, w, h1](QPainter &p) {
            p.setFont(h1);
            p.setPen(kAccent);
            p.drawText(QPointF(kMarginX, y + QFontMetricsF(h1).ascent()), QStringLiteral("Contents"));
        });
        y += 44;
        int i = 0;
        for (const auto &[title, page] : m_contents) {
            const QString label
                = i < int(m.sections.size()) + 1 ? QStringLiteral("%1  %2").arg(i + 1).arg(title) : title;
            ++i;
            const QString pageText = QString::number(page + 1);
            draws.push_back([y, w, label, pageText](QPainter &p) {
                const QFont &f = fonts().body;
                const QFontMetricsF fm(f);
                p.setFont(f);
                p.setPen(kText);
                const double base = y + fm.ascent();
                p.drawText(QPointF(kMarginX, base), label);
                const double pw = fm.horizontalAdvance(pageText);
                p.drawText(QPointF(kMarginX + w - pw, base), pageText);
                p.setPen(QPen(kRule, 0.8, Qt::DotLine));
                const double from = kMarginX + fm.horizontalAdvance(label) + 6, to = kMarginX + w - pw - 6;
                if (to > from)
                    p.drawLine(QPointF(from, base), QPointF(to, base));
            });
            y += 20;
        }
    }
}

ReportDocument::~ReportDocument() = default;

void ReportDocument::paintPage(QPainter &p, int page) const
{
    const Page &pg = m_pages[size_t(page)];
    p.save();
    p.fillRect(QRectF(QPointF(0, 0), m_pageSize), Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    if (page > 0) {
        const double w = m_pageSize.width() - 2 * kMarginX;
        const QFont &f = fonts().small;
        const QFontMetricsF fm(f);
        p.setFont(f);
        p.setPen(kMuted);
        p.drawText(QPointF(kMarginX, kHeaderY), fm.elidedText(m_model->title, Qt::ElideRight, w * 0.55));
        const QString section = fm.elidedText(pg.section, Qt::ElideRight, w * 0.4);
        p.drawText(QPointF(kMarginX + w - fm.horizontalAdvance(section), kHeaderY), section);
        p.setPen(QPen(kRule, 0.6));
        p.drawLine(QPointF(kMarginX, kHeaderY + 6), QPointF(kMarginX + w, kHeaderY + 6));
        const double footer = m_pageSize.height() - kFooterOffset;
        p.drawLine(QPointF(kMarginX, footer - 12), QPointF(kMarginX + w, footer - 12));
        p.setPen(kMuted);
        p.drawText(QPointF(kMarginX, footer), QStringLiteral("Plumb · %1").arg(m_model->date));
        const QString number = QStringLiteral("Page %1 of %2").arg(page + 1).arg(m_pages.size());
        p.drawText(QPointF(kMarginX + w - fm.horizontalAdvance(number), footer), number);
    }
    for (const Draw &d : pg.draws) {
        p.save();
        d(p);
        p.restore();
    }
    p.restore();
}

bool ReportDocument::writePdf(
    const QString &path, QString *error, const std::function<bool(int)> &progress) const
{
    QPdfWriter writer(path);
    writer.setCreator(QStringLiteral("Plumb"));
    writer.setTitle(m_model->title);
    writer.setResolution(72); // a point per unit, as the layout
    writer.setPageSize(QPageSize(m_pageSize, QPageSize::Point, QString(), QPageSize::ExactMatch));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter p;
    if (!p.begin(&writer)) {
        *error = QStringLiteral("cannot write %1").arg(QDir::toNativeSeparators(path));
        return false;
    }
    for (int i = 0; i < pageCount(); ++i) {
        if (progress && !progress(i)) {
            p.end();
            QFile::remove(path);
            *error = QStringLiteral("cancelled");
            return false;
        }
        if (i > 0)
            writer.newPage();
        paintPage(p, i);
    }
    if (!p.end()) {
        *error = QStringLiteral("cannot write %1").arg(QDir::toNativeSeparators(path));
        return false;
    }
    return true;
}

QString ReportDocument::pngPagePath(const QString &path, int page, int pages)
{
    const QFileInfo fi(path);
    const int digits = std::max(2, int(QString::number(pages).size()));
    const QString suffix = fi.suffix().isEmpty() ? QStringLiteral("png") : fi.suffix();
    return fi.dir().filePath(QStringLiteral("%1-%2.%3")
                                 .arg(fi.completeBaseName())
                                 .arg(page + 1, digits, 10, QLatin1Char('0'))
                                 .arg(suffix));
}

QStringList ReportDocument::writePngs(
    const QString &path, int dpi, QString *error, const std::function<bool(int)> &progress) const
{
    QStringList written;
    const double scale = dpi / 72.0;
    const QSize px(
        int(std::lround(m_pageSize.width() * scale)), int(std::lround(m_pageSize.height() * scale)));
    for (int i = 0; i < pageCount(); ++i) {
        if (progress && !progress(i)) {
            *error = QStringLiteral("cancelled");
            return {};
        }
        QImage image(px, QImage::Format_RGB32);
        image.fill(Qt::white);
        {
            QPainter p(&image);
            p.scale(scale, scale);
            paintPage(p, i);
        }
        const int dpm = int(std::lround(dpi / 0.0254));
        image.setDotsPerMeterX(dpm);
        image.setDotsPerMeterY(dpm);
        const QString file = pngPagePath(path, i, pageCount());
        if (!image.save(file, "PNG")) {
            *error = QStringLiteral("cannot write %1").arg(QDir::toNativeSeparators(file));
            return {};
        }
        written << file;
    }
    return written;
}

QStringList writeReport(ReportModel model, const ReportOptions &options, const QString &path, QString *error,
    const std::function<bool(int, int)> &progress, int *pages)
{
    const ReportDocument doc(std::move(model), options.pageSize);
    if (pages)
        *pages = doc.pageCount();
    auto step = [&](int page) { return !progress || progress(page, doc.pageCount()); };
    if (QFileInfo(path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) == 0)
        return doc.writePngs(path, options.dpi, error, step);
    if (!doc.writePdf(path, error, step))
        return {};
    return { path };
}

} // namespace plumb
