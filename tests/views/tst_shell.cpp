// SPDX-License-Identifier: GPL-3.0-or-later
// The shell around the views: the shortcut table (no key twice in one context, the menus read it,
// Help > Keyboard Shortcuts lists it), remembered settings (written, widgets recreated, read back),
// the welcome tour, and an accessibility walk over the main window and its dialogs.
#include "builtinimporters.h"
#include "ingest/importerregistry.h"
#include "mainwindow.h"
#include "report/reportdialog.h"
#include "shell/shortcutsdialog.h"
#include "shell/shortcuttable.h"
#include "shell/viewsettings.h"
#include "shell/welcometour.h"
#include "store/workspace.h"
#include "tabularimportdialog.h"
#include "tracedetailswidget.h"

#include <QAccessible>
#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QDropEvent>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUrl>

#include <memory>

using namespace plumb;

namespace {

constexpr int kLoadTimeoutMs = 60'000;

// Exposes the protected moveSplitter(), which is what a drag of the handle calls.
class DraggableSplitter final : public QSplitter {
public:
    using QSplitter::QSplitter;
    void drag(int pos, int index) { moveSplitter(pos, index); }
};

void menuActions(const QMenu *menu, QList<QAction *> &out)
{
    for (QAction *a : menu->actions()) {
        if (a->menu())
            menuActions(a->menu(), out);
        else if (!a->isSeparator())
            out << a;
    }
}

QList<QAction *> menuBarActions(const QMainWindow &window)
{
    QList<QAction *> out;
    for (QAction *a : window.menuBar()->actions())
        if (a->menu())
            menuActions(a->menu(), out);
    return out;
}

// The submenu of the menu bar titled `title` (with its mnemonic), or null.
QMenu *menuTitled(const QMainWindow &window, const QString &title)
{
    for (QAction *top : window.menuBar()->actions())
        if (top->menu())
            for (QAction *a : top->menu()->actions())
                if (a->menu() && a->text() == title)
                    return a->menu();
    return nullptr;
}

// What a screen reader would say for `w`: its accessible name (Qt derives it from the text of a
// button, a label's buddy, or the accessibleName property).
QString spokenName(QWidget *w)
{
    QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(w);
    return iface ? iface->text(QAccessible::Name).trimmed() : QString();
}

// Focusable widgets under `root` that a screen reader could not name.
QStringList unnamedFocusable(QWidget *root)
{
    QStringList unnamed;
    const auto widgets = root->findChildren<QWidget *>();
    for (QWidget *w : widgets) {
        // Reachable by keyboard, in this window (a combo box's popup list is a window of its own).
        if (!(w->focusPolicy() & Qt::TabFocus) || !w->isEnabled() || w->window() != root->window())
            continue;
        // A tab bar is a list of named tabs; Qt gives the list itself no name.
        if (qobject_cast<QTabBar *>(w))
            continue;
        // Parts of a composite control that Qt names through their owner.
        if (w->focusProxy() || qobject_cast<QAbstractScrollArea *>(w->parentWidget()))
            continue;
        if (spokenName(w).isEmpty())
            unnamed << QStringLiteral("%1 '%2' in %3")
                           .arg(QLatin1String(w->metaObject()->className()), w->objectName(),
                               QLatin1String(
                                   w->parentWidget() ? w->parentWidget()->metaObject()->className() : "-"));
    }
    return unnamed;
}

} // namespace

class TestShell : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PlumbTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_shell"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(
            QSettings::IniFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        QSettings().clear();
        registerBuiltinImporters(m_registry);
    }

    // --- the shortcut table ------------------------------------------------------------------

    void shortcutTableHasNoClashes()
    {
        QHash<QString, QString> windowKeys; // key -> id
        QHash<QPair<int, QString>, QString> contextKeys; // (context, key) -> id
        QSet<QString> ids;
        for (const ShortcutEntry &e : shortcutTable()) {
            QVERIFY2(!ids.contains(e.id), qPrintable(e.id));
            ids.insert(e.id);
            QVERIFY2(!e.text.isEmpty() && !e.group.isEmpty(), qPrintable(e.id));
            QVERIFY2(!e.frequent || !e.keys.isEmpty(),
                qPrintable(e.id + QStringLiteral(" is frequent but has no key")));
            for (const QKeySequence &k : e.keys) {
                const QString key = k.toString(QKeySequence::PortableText);
                QVERIFY2(!key.isEmpty(), qPrintable(e.id));
                const auto slot = qMakePair(int(e.context), key);
                QVERIFY2(!contextKeys.contains(slot),
                    qPrintable(QStringLiteral("%1 and %2 share %3").arg(contextKeys.value(slot), e.id, key)));
                contextKeys.insert(slot, e.id);
                if (e.context == ShortcutEntry::Context::Window)
                    windowKeys.insert(key, e.id);
            }
        }
        // A Window key fires anywhere, so no widget context may use it as well.
        for (auto it = contextKeys.cbegin(); it != contextKeys.cend(); ++it)
            if (it.key().first != int(ShortcutEntry::Context::Window))
                QVERIFY2(!windowKeys.contains(it.key().second),
                    qPrintable(QStringLiteral("%1 and %2 share %3")
                                   .arg(windowKeys.value(it.key().second), it.value(), it.key().second)));
        // The frequent actions the issue names have keys.
        for (const char *id : { "file.open", "file.importFiles", "file.importFolder", "file.exportReport",
                 "view.refresh", "view.find", "view.zoomIn", "view.zoomOut", "view.zoomFit", "view.nextTab",
                 "view.previousTab", "table.copy", "view.closeTab", "view.fullScreen", "view.timeline",
                 "view.doctor", "view.experiments" }) {
            const ShortcutEntry *e = findShortcut(QLatin1String(id));
            QVERIFY2(e && !e->keys.isEmpty(), id);
        }
    }

    void menusReadTheTable()
    {
        auto window = openWindow(QStringLiteral("menus.plumb"));
        QSet<QString> inMenus;
        for (QAction *a : menuBarActions(*window)) {
            const ShortcutEntry *e = findShortcut(a->objectName());
            if (e) {
                inMenus.insert(e->id);
                QCOMPARE(a->shortcuts(), e->keys);
                QCOMPARE(a->text(), e->text);
            } else {
                // No key outside the table: the dialog would not list it.
                QVERIFY2(a->shortcut().isEmpty(),
                    qPrintable(a->text() + QStringLiteral(" has a key that is not in the shortcut table")));
            }
        }
        for (const ShortcutEntry &e : shortcutTable())
            if (e.context == ShortcutEntry::Context::Window)
                QVERIFY2(inMenus.contains(e.id), qPrintable(e.id + QStringLiteral(" is in no menu")));

        // Every table of the views has Copy and Copy as CSV with the table's keys.
        const auto tables = window->findChildren<QTableView *>();
        int withCopy = 0;
        for (QTableView *t : tables) {
            for (QAction *a : t->actions())
                if (a->objectName() == QLatin1String("table.copyCsv")) {
                    ++withCopy;
                    QCOMPARE(a->shortcutContext(), Qt::WidgetShortcut);
                    QCOMPARE(a->shortcuts(), findShortcut(QStringLiteral("table.copyCsv"))->keys);
                }
        }
        QVERIFY2(withCopy >= 8, qPrintable(QString::number(withCopy)));
    }

    void dialogListsEveryShortcut()
    {
        ShortcutsDialog dialog;
        QCOMPARE(dialog.visibleCount(), int(shortcutTable().size()));
        QStringList listed;
        for (int g = 0; g < dialog.list()->topLevelItemCount(); ++g)
            for (int i = 0; i < dialog.list()->topLevelItem(g)->childCount(); ++i)
                listed << dialog.list()->topLevelItem(g)->child(i)->data(0, Qt::UserRole).toString();
        for (const ShortcutEntry &e : shortcutTable())
            QVERIFY2(listed.contains(e.id), qPrintable(e.id));

        dialog.setFilter(QStringLiteral("zoom"));
        int zooms = 0;
        for (const ShortcutEntry &e : shortcutTable())
            zooms += e.text.contains(QStringLiteral("zoom"), Qt::CaseInsensitive)
                || e.group.contains(QStringLiteral("zoom"), Qt::CaseInsensitive);
        QVERIFY(zooms >= 3);
        QCOMPARE(dialog.visibleCount(), zooms);
        dialog.setFilter(
            findShortcut(QStringLiteral("view.doctor"))->keys.first().toString(QKeySequence::NativeText));
        QVERIFY(dialog.visibleCount() >= 1);
        dialog.setFilter(QStringLiteral("no action is called this"));
        QCOMPARE(dialog.visibleCount(), 0);
    }

    // --- remembered settings -----------------------------------------------------------------

    void settingsPersist()
    {
        QStandardItemModel model(3, 4);
        {
            QTableView table;
            table.setModel(&model);
            table.horizontalHeader()->setStretchLastSection(true);
            ViewSettings::remember(table.horizontalHeader(), QStringLiteral("test/table"));
            // A view sizing its own columns is not the user: nothing is saved.
            table.horizontalHeader()->resizeSection(0, 40);
            QVERIFY(!ViewSettings::hasColumnWidths(QStringLiteral("test/table")));
            // The user drags a section edge.
            table.horizontalHeader()->resizeSection(1, 171);
            QTest::mouseRelease(table.horizontalHeader()->viewport(), Qt::LeftButton);
            QTRY_VERIFY(ViewSettings::hasColumnWidths(QStringLiteral("test/table")));

            DraggableSplitter splitter(Qt::Horizontal);
            splitter.addWidget(new QWidget);
            splitter.addWidget(new QWidget);
            splitter.resize(600, 200);
            splitter.show();
            QVERIFY(QTest::qWaitForWindowExposed(&splitter));
            ViewSettings::remember(&splitter, QStringLiteral("test/splitter"));
            splitter.drag(150, 1);
            m_savedSizes = splitter.sizes();

            QTabWidget tabs;
            tabs.addTab(new QWidget, QStringLiteral("a"));
            tabs.addTab(new QWidget, QStringLiteral("b"));
            tabs.addTab(new QWidget, QStringLiteral("c"));
            ViewSettings::remember(&tabs, QStringLiteral("test/tabs"));
            tabs.setCurrentIndex(2);

            QCheckBox box(QStringLiteral("Fold repeated runs"));
            ViewSettings::remember(&box, QStringLiteral("test/check"));
            box.setChecked(true);
        }
        // Recreated: everything comes back, and the column width survives a model reset after
        // which the view sizes its columns to their contents.
        QTableView table;
        table.setModel(&model);
        table.horizontalHeader()->setStretchLastSection(true);
        ViewSettings::remember(table.horizontalHeader(), QStringLiteral("test/table"));
        QCOMPARE(table.horizontalHeader()->sectionSize(1), 171);
        model.clear(); // a reset, as a view's model has on each load
        model.setColumnCount(4);
        model.setRowCount(5);
        table.resizeColumnsToContents();
        QTRY_COMPARE(table.horizontalHeader()->sectionSize(1), 171);

        DraggableSplitter splitter(Qt::Horizontal);
        splitter.addWidget(new QWidget);
        splitter.addWidget(new QWidget);
        splitter.resize(600, 200);
        ViewSettings::remember(&splitter, QStringLiteral("test/splitter"));
        splitter.show();
        QVERIFY(QTest::qWaitForWindowExposed(&splitter));
        QCOMPARE(splitter.sizes(), m_savedSizes);

        QTabWidget tabs;
        tabs.addTab(new QWidget, QStringLiteral("a"));
        tabs.addTab(new QWidget, QStringLiteral("b"));
        tabs.addTab(new QWidget, QStringLiteral("c"));
        ViewSettings::remember(&tabs, QStringLiteral("test/tabs"));
        QCOMPARE(tabs.currentIndex(), 2);

        QCheckBox box(QStringLiteral("Fold repeated runs"));
        ViewSettings::remember(&box, QStringLiteral("test/check"));
        QVERIFY(box.isChecked());
    }

    // File > Recent Workspaces lists the workspaces opened, newest first, the open one disabled;
    // a dropped file lands in File > Recent Files, whose entry imports it again.
    void recentWorkspacesAndFiles()
    {
        QSettings().remove(QStringLiteral("recentWorkspaces"));
        QSettings().remove(QStringLiteral("recentFiles"));
        openWindow(QStringLiteral("recent1.plumb"));
        auto window = openWindow(QStringLiteral("recent2.plumb"));
        QMenu *workspaces = menuTitled(*window, QStringLiteral("&Recent Workspaces"));
        QVERIFY(workspaces);
        emit workspaces->aboutToShow();
        QList<QAction *> items = workspaces->actions();
        QVERIFY(items.size() >= 2);
        QVERIFY2(items[0]->text().endsWith(QStringLiteral("recent2.plumb")), qPrintable(items[0]->text()));
        QVERIFY(!items[0]->isEnabled()); // open now
        QVERIFY2(items[1]->text().endsWith(QStringLiteral("recent1.plumb")), qPrintable(items[1]->text()));
        QVERIFY(items[1]->isEnabled());

        const QString trace = QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/chrometrace/data/basic.json");
        QMimeData mime;
        mime.setUrls({ QUrl::fromLocalFile(trace) });
        QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window.get(), &enter); // a drop is delivered only after its drag entered
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QSignalSpy imported(window.get(), &MainWindow::importFinished);
        QCoreApplication::sendEvent(window.get(), &drop);
        QVERIFY(imported.wait(kLoadTimeoutMs));
        QCOMPARE(imported.front().at(0).toInt(), 1);

        QMenu *files = menuTitled(*window, QStringLiteral("Recent &Files"));
        QVERIFY(files);
        emit files->aboutToShow();
        items = files->actions();
        QVERIFY(!items.isEmpty());
        QVERIFY2(items[0]->text().endsWith(QDir::toNativeSeparators(trace)), qPrintable(items[0]->text()));
        QVERIFY(items[0]->isEnabled());
        // Again: the file is there already, so nothing new is read.
        imported.clear();
        items[0]->trigger();
        QVERIFY(imported.wait(kLoadTimeoutMs));
        QCOMPARE(imported.front().at(1).toInt(), 0); // no problem
        QCOMPARE(Workspace(m_dir.filePath(QStringLiteral("recent2.plumb")), Workspace::Role::Reader)
                     .db()
                     .queryInt("SELECT count(*) FROM source"),
            1);
        // Clear Menu empties it.
        items.last()->trigger();
        emit files->aboutToShow();
        QCOMPARE(files->actions().size(), 1);
        QVERIFY(!files->actions().front()->isEnabled());
    }

    // The main window's geometry, dock layout and a panel's check box come back in a new window.
    void windowLayoutPersists()
    {
        {
            auto window = openWindow(QStringLiteral("layout.plumb"));
            m_windowSize = window->size() + QSize(57, 43);
            window->resize(m_windowSize);
            auto *fold = findByText<QCheckBox>(window.get(), QStringLiteral("Fold repeated runs"));
            QVERIFY(fold);
            fold->setChecked(!fold->isChecked());
            m_foldChecked = fold->isChecked();
            // The docks start closed (the Diagnostics is a badge in the status bar); one the user
            // opened is open again next time, one left closed stays closed.
            auto *dock = window->findChild<QDockWidget *>(QStringLiteral("importLogDock"));
            QVERIFY(dock);
            dock->hide();
            auto *diagnostics = window->findChild<QDockWidget *>(QStringLiteral("diagnosticsDock"));
            QVERIFY(diagnostics);
            window->showDiagnostics();
            QVERIFY(diagnostics->isVisible());
            // Closed on a tab without details: the pane comes back at a usable width all the same.
            window->openQuery();
            QVERIFY(window->detailsPane()->isHidden());
            window->close();
        }
        auto window = openWindow(QStringLiteral("layout.plumb"));
        QCOMPARE(window->size(), m_windowSize);
        QCOMPARE(findByText<QCheckBox>(window.get(), QStringLiteral("Fold repeated runs"))->isChecked(),
            m_foldChecked);
        QVERIFY(window->findChild<QDockWidget *>(QStringLiteral("importLogDock"))->isHidden());
        QVERIFY(window->findChild<QDockWidget *>(QStringLiteral("diagnosticsDock"))->isVisible());
        window->findChild<QDockWidget *>(QStringLiteral("diagnosticsDock"))->hide();
        window->openQuery(); // the tab remembered may be any: from Query to Workspace shows the pane
        window->openLineage();
        window->findChild<QTabWidget *>()->setCurrentIndex(0);
        QVERIFY(window->detailsPane()->isVisible());
        QVERIFY2(window->detailsPane()->width() >= 150,
            qPrintable(QString::number(window->detailsPane()->width())));
        window->close();
    }

    // --- the welcome tour --------------------------------------------------------------------

    void welcomeTour()
    {
        WelcomeTour::setDismissed(false);
        QVERIFY(WelcomeTour::shouldShow());
        auto window = openWindow(QStringLiteral("tour.plumb"));
        window->showWelcomeTour();
        WelcomeTour *tour = window->welcomeTour();
        QVERIFY(tour && tour->isVisible());
        QCOMPARE(tour->geometry(), window->rect());
        QCOMPARE(tour->stepCount(), 4);
        for (int step = 0; step < 3; ++step) {
            QCOMPARE(tour->step(), step);
            const QRect target = tour->targetRect();
            QVERIFY2(
                !target.isEmpty() && window->rect().intersects(target), qPrintable(QString::number(step)));
            QVERIFY2(
                !tour->cardRect().intersects(target), qPrintable(QString::number(step))); // beside, not over
            QTest::keyClick(tour, Qt::Key_Right);
        }
        QTest::keyClick(tour, Qt::Key_Left);
        QCOMPARE(tour->step(), 2);
        auto *dontShow = findByText<QCheckBox>(tour, QStringLiteral("&Don't show again"));
        QVERIFY(dontShow);
        dontShow->setChecked(true);
        QVERIFY(!WelcomeTour::shouldShow());
        QSignalSpy finished(tour, &WelcomeTour::finished);
        QTest::keyClick(tour, Qt::Key_Escape);
        QCOMPARE(finished.size(), 1);
        QVERIFY(!tour->isVisible());
        // Help > Show Welcome Tour brings it back, from the start.
        window->findChild<QAction *>(QStringLiteral("help.tour"))->trigger();
        QVERIFY(tour->isVisible());
        QCOMPARE(tour->step(), 0);
    }

    // --- accessibility -----------------------------------------------------------------------

    void everyFocusableWidgetHasAName()
    {
        auto window = openWindow(QStringLiteral("a11y.plumb"));
        QStringList unnamed = unnamedFocusable(window.get());
        ShortcutsDialog shortcuts(window.get());
        unnamed += unnamedFocusable(&shortcuts);
        ReportDialog report(window->workspacePath(), window.get());
        unnamed += unnamedFocusable(&report);
        window->showWelcomeTour();
        unnamed += unnamedFocusable(window->welcomeTour());
        unnamed.removeDuplicates();
        QVERIFY2(unnamed.isEmpty(), qPrintable(QStringLiteral("\n") + unnamed.join(QLatin1Char('\n'))));
    }

    // Custom widgets take the keyboard: the timeline and the lineage graph.
    void customViewsTakeFocus()
    {
        auto window = openWindow(QStringLiteral("focus.plumb"));
        for (const char *cls : { "plumb::TimelineView", "QGraphicsView" }) {
            bool found = false;
            for (QWidget *w : window->findChildren<QWidget *>())
                if (w->inherits(cls)) {
                    found = true;
                    QVERIFY2(w->focusPolicy() & Qt::TabFocus, cls);
                }
            QVERIFY2(found, cls);
        }
    }

private:
    template <typename W> static W *findByText(QWidget *root, const QString &text)
    {
        for (W *w : root->findChildren<W *>())
            if (w->text() == text)
                return w;
        return nullptr;
    }

    std::unique_ptr<MainWindow> openWindow(const QString &name)
    {
        auto window = std::make_unique<MainWindow>(m_registry, m_dir.filePath(name));
        QSignalSpy loaded(window.get(), &MainWindow::workspaceLoaded);
        window->show();
        if (!loaded.wait(kLoadTimeoutMs))
            qWarning("the workspace did not load");
        return window;
    }

    ImporterRegistry m_registry;
    QTemporaryDir m_dir;
    QList<int> m_savedSizes;
    bool m_foldChecked = false;
    QSize m_windowSize;
};

QTEST_MAIN(TestShell)
#include "tst_shell.moc"
