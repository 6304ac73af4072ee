// SPDX-License-Identifier: GPL-3.0-or-later
// The import dialog of CSV/JSONL metric logs: it shows core's detected roles, lets the user change
// them, and hands back roles that reproduce the choice exactly; OK is off while the roles cannot work.

#include "tabularimportdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

using namespace plumb;

namespace {
QString data(const char *name)
{
    return QStringLiteral(PLUMB_TABULAR_DATA "/") + QLatin1String(name);
}

QString roles(const TabularLayout &l)
{
    QStringList out;
    for (const auto &c : l.columns)
        out << c.name + QLatin1Char(':') + roleName(c.role);
    return out.join(QLatin1Char(' '));
}
} // namespace

class TestTabularImportDialog : public QObject {
    Q_OBJECT
private slots:
    void showsDetectedRolesAndRows()
    {
        TabularImportDialog d(data("mlflow_export.csv"));
        auto *table = d.findChild<QTableWidget *>();
        QVERIFY(table);
        QCOMPARE(table->columnCount(), 5);
        QCOMPARE(table->rowCount(), 34 + 1); // the role row and every row (under kPreviewRows)
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("a1b2"));
        QCOMPARE(d.roleBox(0)->currentText(), QStringLiteral("run"));
        QCOMPARE(d.roleBox(1)->currentText(), QStringLiteral("key"));
        QCOMPARE(d.roleBox(4)->currentText(), QStringLiteral("time"));
    }

    void changedRolesComeBack()
    {
        TabularImportDialog d(data("odd_names.csv"));
        auto *ok = d.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(ok->isEnabled());
        d.roleBox(0)->setCurrentIndex(d.roleBox(0)->findText(QStringLiteral("step")));
        d.roleBox(1)->setCurrentIndex(d.roleBox(1)->findText(QStringLiteral("time")));
        QVERIFY(ok->isEnabled());
        TabularLayout l
            = TabularLayout::detect(QByteArray("k,when,score,loss\n0,1700000000,0.1,0.9\n"), true);
        QVERIFY(l.apply(d.options().tabular).isEmpty());
        QCOMPARE(roles(l), QStringLiteral("k:step when:time score:metric loss:metric"));
        // Two step columns cannot work: OK is off and the dialog says why.
        d.roleBox(2)->setCurrentIndex(d.roleBox(2)->findText(QStringLiteral("step")));
        QVERIFY(!ok->isEnabled());
        bool said = false;
        for (auto *label : d.findChildren<QLabel *>())
            said = said || label->text().contains(QStringLiteral("2 columns have the role step"));
        QVERIFY(said);
    }
};

QTEST_MAIN(TestTabularImportDialog)
#include "tst_tabularimportdialog.moc"
