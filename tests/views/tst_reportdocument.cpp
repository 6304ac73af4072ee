// SPDX-License-Identifier: GPL-3.0-or-later
// Review reports drawn (views/report): the PDF's pages and text (read back with poppler's pdftotext
// and pdfinfo), PNG pages at the DPI asked for, identical bytes for the same workspace apart from the
// creation date, and the Export Report dialog.
#include "importhelpers.h"
#include "report/reportbuilder.h"
#include "report/reportdialog.h"
#include "report/reportdocument.h"
#include "reviewworkspace.h"
#include "store/workspace.h"

#include <QApplication>
#include <QFile>
#include <QImage>
#include <QListWidget>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace plumb;

namespace {

ReportModel modelOf(const QString &workspace, const ReportOptions &options)
{
    Workspace ws(workspace, Workspace::Role::Reader);
    ReportBuild b = buildReport(ws, workspace, options);
    if (!b.error.isEmpty())
        qWarning("%s", qPrintable(b.error));
    return std::move(b.model);
}

QString run(const QString &tool, const QStringList &args)
{
    QProcess p;
    p.start(tool, args);
    p.waitForFinished(60000);
    return QString::fromUtf8(p.readAllStandardOutput());
}

int pdfPages(const QString &pdf)
{
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)"))
                                          .match(run(QStringLiteral("pdfinfo"), { pdf }));
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

// The PDF without its creation date (the one thing that differs from run to run).
QByteArray withoutDate(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QByteArray bytes = f.readAll();
    static const QRegularExpression date(QStringLiteral("/CreationDate \\([^)]*\\)"));
    return QString::fromLatin1(bytes).replace(date, QStringLiteral("/CreationDate ()")).toLatin1();
}

} // namespace

class TestReportDocument : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_sample; // the bundled sample: one trace and the pipeline's lineage
    QString m_review; // ../shared/data's traces, trials and lineage; empty when absent
    bool m_poppler = false;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_sample = m_dir.filePath(QStringLiteral("sample.plumb"));
        const QString samples = QStringLiteral(PLUMB_SOURCE_DIR "/resources/samples/");
        const QString problems = importIntoWorkspace(m_sample,
            { samples + QStringLiteral("sample_training_step.pt.trace.json.gz"),
                samples + QStringLiteral("sample_pipeline.openlineage.json") });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        bool missing = false;
        m_review = m_dir.filePath(QStringLiteral("review.plumb"));
        const QString reviewProblems = importReviewWorkspace(m_review, &missing);
        if (missing)
            m_review.clear();
        else
            QVERIFY2(reviewProblems.isEmpty(), qPrintable(reviewProblems));
        m_poppler = !QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty()
            && !QStandardPaths::findExecutable(QStringLiteral("pdfinfo")).isEmpty();
    }

    void samplePdf()
    {
        if (!m_poppler)
            QSKIP("pdftotext/pdfinfo (poppler-utils) are not installed: the PDF is not read back");
        ReportOptions o;
        o.title = QStringLiteral("Sample review");
        o.author = QStringLiteral("Test author");
        const QString pdf = m_dir.filePath(QStringLiteral("sample.pdf"));
        QString error;
        int pages = 0;
        QCOMPARE(writeReport(modelOf(m_sample, o), o, pdf, &error, {}, &pages), QStringList { pdf });
        QCOMPARE(pdfPages(pdf), pages);
        QVERIFY2(pages >= 6 && pages <= 14, qPrintable(QString::number(pages)));
        const QString text
            = run(QStringLiteral("pdftotext"), { QStringLiteral("-layout"), pdf, QStringLiteral("-") });
        for (const char *expected :
            { "Sample review", "Author: Test author", "Workspace: sample.plumb", "Contents",
                "1 Executive summary", "Step breakdown", "Top GPU ops", "Timeline around the worst step",
                "Lineage of the model", "Import diagnostics", "Appendix: what is not in this report",
                "Multi-rank comparison: left out, no run covered holds the traces of several ranks",
                "Figure 1. Step time per training step", "sample_training_step" })
            QVERIFY2(text.contains(QLatin1String(expected)), expected);
        QVERIFY(text.contains(QStringLiteral("Page 2 of %1").arg(pages)));
        QVERIFY(text.contains(QStringLiteral("Page %1 of %1").arg(pages)));
        QVERIFY(!text.contains(QStringLiteral("Page 1 of"))); // the title page has no footer
    }

    // A table too wide for the page: a file name stays on one line (the numeric headers wrap at
    // their spaces instead), and a long kernel name gets three lines before it is cut (it was cut at
    // two, where the distinguishing template arguments were lost).
    void tableCellsFit()
    {
        if (!m_poppler)
            QSKIP("pdftotext (poppler-utils) is not installed: the PDF is not read back");
        ReportTable t;
        t.header = QStringList { QStringLiteral("GPU op"), QStringLiteral("trace"),
            QStringLiteral("window (ms/step)"), QStringLiteral("exposed comm (ms)"),
            QStringLiteral("idle (ms)") };
        t.numeric = { false, false, true, true, true };
        const QString kernel
            = QStringLiteral("void clover::par_ranged2d_kernel<advec_mom_kernel(int, int, int, double, "
                             "clover::Buffer2D<double> &, clover::Buffer2D<double> &)>(int, int, "
                             "clover::Buffer2D<double> &, int)");
        t.rows << QStringList { kernel, QStringLiteral("hta_sampled_rank-0.json.gz"), QStringLiteral("607.8"),
            QStringLiteral("168.5"), QStringLiteral("334.0") };
        ReportModel model;
        model.title = QStringLiteral("Cells");
        model.date = QStringLiteral("2026-12-04");
        ReportSection section;
        section.id = QStringLiteral("kernels");
        section.title = QStringLiteral("Top GPU ops");
        section.blocks.push_back(ReportBlock::tableOf(t));
        model.sections.push_back(section);
        const QString pdf = m_dir.filePath(QStringLiteral("cells.pdf"));
        QString error;
        QCOMPARE(writeReport(model, ReportOptions {}, pdf, &error), QStringList { pdf });
        const QString text
            = run(QStringLiteral("pdftotext"), { QStringLiteral("-raw"), pdf, QStringLiteral("-") });
        QVERIFY2(text.contains(QStringLiteral("hta_sampled_rank-0.json.gz")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("int, int, double, clover::Buffer2D<double> &")),
            qPrintable(text)); // third line
    }

    void samePdfTwice()
    {
        ReportOptions o;
        o.date = QDateTime(QDate(2026, 3, 4), QTime(5, 6));
        const QString a = m_dir.filePath(QStringLiteral("a.pdf")),
                      b = m_dir.filePath(QStringLiteral("b.pdf"));
        QString error;
        QVERIFY(!writeReport(modelOf(m_sample, o), o, a, &error).isEmpty());
        QTest::qWait(1100); // a creation date a second later
        QVERIFY(!writeReport(modelOf(m_sample, o), o, b, &error).isEmpty());
        const QByteArray x = withoutDate(a), y = withoutDate(b);
        QVERIFY(x.size() > 10000);
        QVERIFY(x == y);
    }

    void pngPages_data()
    {
        QTest::addColumn<int>("pageSize");
        QTest::addColumn<int>("dpi");
        QTest::addColumn<QSize>("pixels");
        QTest::newRow("A4 at 50 dpi") << int(ReportOptions::PageSize::A4) << 50 << QSize(413, 585);
        QTest::newRow("Letter at 100 dpi") << int(ReportOptions::PageSize::Letter) << 100 << QSize(850, 1100);
    }

    void pngPages()
    {
        QFETCH(int, pageSize);
        QFETCH(int, dpi);
        QFETCH(QSize, pixels);
        ReportOptions o;
        o.pageSize = ReportOptions::PageSize(pageSize);
        o.dpi = dpi;
        o.sections = QStringList { QStringLiteral("steps"), QStringLiteral("lineage") };
        const QString png = m_dir.filePath(QStringLiteral("pages%1.png").arg(dpi));
        QString error;
        int pages = 0;
        const QStringList files = writeReport(modelOf(m_sample, o), o, png, &error, {}, &pages);
        QCOMPARE(files.size(), pages);
        QVERIFY(pages >= 5); // title, contents, summary, two sections, appendix
        QCOMPARE(files.front(), m_dir.filePath(QStringLiteral("pages%1-01.png").arg(dpi)));
        for (const QString &f : files) {
            const QImage image(f);
            QCOMPARE(image.size(), pixels);
            QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), dpi);
        }
        // Not blank: the summary page has ink.
        const QImage summary(files[2]);
        int dark = 0;
        for (int y = 0; y < summary.height(); y += 2)
            for (int x = 0; x < summary.width(); x += 2)
                dark += qGray(summary.pixel(x, y)) < 128;
        QVERIFY(dark > 200);
    }

    void reviewPdf()
    {
        if (m_review.isEmpty())
            QSKIP("../shared/data is absent: the report of real traces and logs is not tested");
        if (!m_poppler)
            QSKIP("pdftotext/pdfinfo (poppler-utils) are not installed: the PDF is not read back");
        ReportOptions o;
        o.title = QStringLiteral("Real data review");
        const QString pdf = qEnvironmentVariableIsSet("PLUMB_REPORT_OUT")
            ? qEnvironmentVariable("PLUMB_REPORT_OUT")
            : m_dir.filePath(QStringLiteral("review.pdf"));
        QString error;
        int pages = 0;
        QVERIFY2(!writeReport(modelOf(m_review, o), o, pdf, &error, {}, &pages).isEmpty(), qPrintable(error));
        QCOMPARE(pdfPages(pdf), pages);
        QVERIFY2(pages >= 25 && pages <= 90, qPrintable(QString::number(pages)));
        const QString text = run(QStringLiteral("pdftotext"), { pdf, QStringLiteral("-") });
        for (const char *expected :
            { "Real data review", "Executive summary", "steps/s", "step time part", "Multi-rank comparison",
                "Trace diff against the baseline", "Per-trial metrics", "Configuration diff",
                "Lineage of the model", "Parameter importance: left out", "(continued)" })
            QVERIFY2(text.contains(QLatin1String(expected)), expected);
    }

    void dialog()
    {
        ReportDialog dialog(m_sample);
        auto *sections = dialog.findChild<QListWidget *>();
        QVERIFY(sections);
        QCOMPARE(sections->count(), reportSectionIds().size());
        // The reserved sections are listed, not checkable.
        QCOMPARE(
            sections->findItems(QStringLiteral("(not available in this build)"), Qt::MatchContains).size(),
            reservedReportSectionIds().size());
        const QString tmpl = m_dir.filePath(QStringLiteral("team.yaml"));
        QVERIFY(writeTestFile(tmpl, "title: Team review\nsections: [lineage, steps]\npage_size: Letter\n"));
        QVERIFY(dialog.loadTemplate(tmpl, true));
        const ReportOptions o = dialog.options();
        QCOMPARE(o.title, QStringLiteral("Team review"));
        QCOMPARE(o.sections, (QStringList { QStringLiteral("lineage"), QStringLiteral("steps") }));
        QCOMPARE(o.pageSize, ReportOptions::PageSize::Letter);
        QCOMPARE(sections->item(0)->text(), QStringLiteral("Lineage of the model"));
        if (qEnvironmentVariableIsSet("PLUMB_REPORT_DIALOG_PNG")) {
            dialog.show();
            QVERIFY(dialog.grab().save(qEnvironmentVariable("PLUMB_REPORT_DIALOG_PNG")));
        }
        const QString pdf = m_dir.filePath(QStringLiteral("dialog.pdf"));
        QVERIFY2(dialog.exportTo(pdf), qPrintable(dialog.lastError()));
        QCOMPARE(dialog.lastFiles(), QStringList { pdf });
        QVERIFY(QFile(pdf).size() > 10000);
    }
};

QTEST_MAIN(TestReportDocument)
#include "tst_reportdocument.moc"
