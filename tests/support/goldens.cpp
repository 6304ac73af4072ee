// SPDX-License-Identifier: GPL-3.0-or-later
#include "goldens.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFile>
#include <QStringList>
#include <QtTest>

#include <string>
#include <vector>

using namespace plumb;

QString csvOf(SqliteDb &db, const char *sql)
{
    SqliteStmt st(db, sql);
    QStringList lines;
    QStringList header;
    for (int c = 0; c < st.columnCount(); ++c)
        header << st.columnName(c);
    lines << header.join(QLatin1Char(','));
    while (st.step()) {
        QStringList cells;
        for (int c = 0; c < st.columnCount(); ++c) {
            QString v = st.columnIsNull(c) ? QString() : st.columnText(c);
            if (v.contains(QLatin1Char(',')) || v.contains(QLatin1Char('"')))
                v = QLatin1Char('"') + v.replace(QStringLiteral("\""), QStringLiteral("\"\""))
                    + QLatin1Char('"');
            cells << v;
        }
        lines << cells.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void compareGolden(const QString &actual, const QString &goldenPath)
{
    if (qEnvironmentVariableIsSet("PLUMB_UPDATE_GOLDENS")) {
        QFile out(goldenPath);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(actual.toUtf8());
        return;
    }
    QFile in(goldenPath);
    QVERIFY2(in.open(QIODevice::ReadOnly), qPrintable(QStringLiteral("missing golden ") + goldenPath));
    const QString expected = QString::fromUtf8(in.readAll());
    if (actual != expected) {
        qWarning().noquote() << "actual:\n" << actual << "\nexpected:\n" << expected;
        QFAIL(qPrintable(QStringLiteral("differs from ") + goldenPath));
    }
}

QString tableCounts(const QString &workspacePath)
{
    Workspace ws(workspacePath, Workspace::Role::Reader);
    QStringList out;
    SqliteStmt tables(ws.db(), "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    std::vector<std::string> names;
    while (tables.step())
        names.emplace_back(tables.columnView(0));
    for (const auto &name : names)
        out << QStringLiteral("%1=%2")
                   .arg(QString::fromStdString(name))
                   .arg(ws.db().queryInt("SELECT count(*) FROM \"" + name + "\""));
    return out.join(QLatin1Char(' '));
}
