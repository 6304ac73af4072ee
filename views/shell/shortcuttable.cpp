// SPDX-License-Identifier: GPL-3.0-or-later
#include "shell/shortcuttable.h"

#include <QAction>
#include <QCoreApplication>

namespace plumb {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Shortcuts", text);
}

QList<QKeySequence> keys(std::initializer_list<QKeySequence> list)
{
    return QList<QKeySequence>(list);
}

std::vector<ShortcutEntry> buildTable()
{
    using C = ShortcutEntry::Context;
    using K = QKeySequence;
    const QString file = tr("File"), view = tr("View"), timeline = tr("Timeline"), tables = tr("Tables"),
                  help = tr("Help");
    return {
        { QStringLiteral("file.open"), file, tr("&Open Workspace…"), keys({ K::Open }), C::Window, true },
        { QStringLiteral("file.new"), file, tr("&New Workspace…"), keys({ K::New }), C::Window, true },
        { QStringLiteral("file.importFiles"), file, tr("&Import Files…"), keys({ K(Qt::CTRL | Qt::Key_I) }),
            C::Window, true },
        { QStringLiteral("file.importFolder"), file, tr("Import &Folder…"),
            keys({ K(Qt::CTRL | Qt::SHIFT | Qt::Key_I) }), C::Window, true },
        { QStringLiteral("file.watchFolder"), file, tr("&Watch Folder…"),
            keys({ K(Qt::CTRL | Qt::ALT | Qt::Key_W) }), C::Window, true },
        { QStringLiteral("file.stopWatching"), file, tr("Stop &Watching"), {}, C::Window, false },
        { QStringLiteral("file.cancelImport"), file, tr("&Cancel Import"),
            keys({ K(Qt::SHIFT | Qt::Key_Escape) }), C::Window, true },
        { QStringLiteral("file.exportReport"), file, tr("Export &Report…"), keys({ K(Qt::CTRL | Qt::Key_P) }),
            C::Window, true },
        { QStringLiteral("file.quit"), file, tr("&Quit"), keys({ K(Qt::CTRL | Qt::Key_Q) }), C::Window,
            true },

        { QStringLiteral("view.workspace"), view, tr("&Workspace Browser"), keys({ K(Qt::CTRL | Qt::Key_1) }),
            C::Window, true },
        { QStringLiteral("view.sources"), view, tr("&Sources"), keys({ K(Qt::CTRL | Qt::Key_2) }), C::Window,
            true },
        { QStringLiteral("view.diagnostics"), view, tr("&Diagnostics"), keys({ K(Qt::CTRL | Qt::Key_3) }),
            C::Window, true },
        { QStringLiteral("view.importLog"), view, tr("Import &Log"), keys({ K(Qt::CTRL | Qt::Key_4) }),
            C::Window, true },
        { QStringLiteral("view.timeline"), view, tr("&Timeline"), keys({ K(Qt::CTRL | Qt::Key_T) }),
            C::Window, true },
        { QStringLiteral("view.doctor"), view, tr("&Doctor"), keys({ K(Qt::CTRL | Qt::Key_D) }), C::Window,
            true },
        { QStringLiteral("view.callTree"), view, tr("&Call Tree"),
            keys({ K(Qt::CTRL | Qt::SHIFT | Qt::Key_H) }), C::Window, true },
        { QStringLiteral("view.memory"), view, tr("&Memory"), keys({ K(Qt::CTRL | Qt::Key_M) }), C::Window,
            true },
        { QStringLiteral("view.compare"), view, tr("&Compare Traces"),
            keys({ K(Qt::CTRL | Qt::SHIFT | Qt::Key_D) }), C::Window, true },
        { QStringLiteral("view.experiments"), view, tr("E&xperiments"), keys({ K(Qt::CTRL | Qt::Key_E) }),
            C::Window, true },
        { QStringLiteral("view.lineage"), view, tr("&Lineage"), keys({ K(Qt::CTRL | Qt::SHIFT | Qt::Key_L) }),
            C::Window, true },
        { QStringLiteral("view.goodput"), view, tr("&Goodput"), keys({ K(Qt::CTRL | Qt::SHIFT | Qt::Key_G) }),
            C::Window, true },
        { QStringLiteral("view.slo"), view, tr("SL&O"), keys({ K(Qt::CTRL | Qt::SHIFT | Qt::Key_O) }),
            C::Window, true },
        { QStringLiteral("view.query"), view, tr("&Query"), keys({ K(Qt::CTRL | Qt::SHIFT | Qt::Key_Q) }),
            C::Window, true },
        { QStringLiteral("view.nextTab"), view, tr("Ne&xt Tab"),
            keys({ K(Qt::CTRL | Qt::Key_PageDown), K(Qt::CTRL | Qt::Key_Tab) }), C::Window, true },
        { QStringLiteral("view.previousTab"), view, tr("Pre&vious Tab"),
            keys({ K(Qt::CTRL | Qt::Key_PageUp), K(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab) }), C::Window,
            true },
        { QStringLiteral("view.closeTab"), view, tr("Clos&e View"), keys({ K(Qt::CTRL | Qt::Key_W) }),
            C::Window, true },
        { QStringLiteral("view.find"), view, tr("&Find…"), keys({ K(Qt::CTRL | Qt::Key_F) }), C::Window,
            true },
        { QStringLiteral("view.zoomIn"), view, tr("Zoom &In"),
            keys({ K(Qt::CTRL | Qt::Key_Plus), K(Qt::CTRL | Qt::Key_Equal) }), C::Window, true },
        { QStringLiteral("view.zoomOut"), view, tr("Zoom O&ut"), keys({ K(Qt::CTRL | Qt::Key_Minus) }),
            C::Window, true },
        { QStringLiteral("view.zoomFit"), view, tr("&Fit to Window"), keys({ K(Qt::CTRL | Qt::Key_0) }),
            C::Window, true },
        { QStringLiteral("view.fullScreen"), view, tr("F&ull Screen"), keys({ K(Qt::Key_F11) }), C::Window,
            true },
        { QStringLiteral("view.refresh"), view, tr("&Refresh"),
            keys({ K(Qt::Key_F5), K(Qt::CTRL | Qt::Key_R) }), C::Window, true },

        { QStringLiteral("timeline.zoomIn"), timeline, tr("Zoom in at the pointer"), keys({ K(Qt::Key_W) }),
            C::Timeline, true },
        { QStringLiteral("timeline.zoomOut"), timeline, tr("Zoom out at the pointer"), keys({ K(Qt::Key_S) }),
            C::Timeline, true },
        { QStringLiteral("timeline.panLeft"), timeline, tr("Pan left"), keys({ K(Qt::Key_A) }), C::Timeline,
            true },
        { QStringLiteral("timeline.panRight"), timeline, tr("Pan right"), keys({ K(Qt::Key_D) }), C::Timeline,
            true },
        { QStringLiteral("timeline.fit"), timeline, tr("Show the whole trace"), keys({ K(Qt::Key_F) }),
            C::Timeline, true },
        { QStringLiteral("timeline.zoomSelection"), timeline, tr("Zoom to the selected range"),
            keys({ K(Qt::Key_Z) }), C::Timeline, true },
        { QStringLiteral("timeline.clearSelection"), timeline, tr("Clear the selection"),
            keys({ K(Qt::Key_Escape) }), C::Timeline, true },
        { QStringLiteral("timeline.scroll"), timeline, tr("Scroll the tracks"),
            keys({ K(Qt::Key_Up), K(Qt::Key_Down), K(Qt::Key_PageUp), K(Qt::Key_PageDown) }), C::Timeline,
            true },

        { QStringLiteral("table.copy"), tables, tr("&Copy"), keys({ K::Copy }), C::Table, true },
        { QStringLiteral("table.copyCsv"), tables, tr("Copy as CS&V"),
            keys({ K(Qt::CTRL | Qt::SHIFT | Qt::Key_C) }), C::Table, true },

        { QStringLiteral("help.guide"), help, tr("&User Guide"), keys({ K::HelpContents }), C::Window, true },
        { QStringLiteral("help.shortcuts"), help, tr("&Keyboard Shortcuts"),
            keys({ K(Qt::CTRL | Qt::Key_Slash) }), C::Window, true },
        { QStringLiteral("help.tour"), help, tr("Show Welcome &Tour"), {}, C::Window, false },
    };
}

} // namespace

const std::vector<ShortcutEntry> &shortcutTable()
{
    static const std::vector<ShortcutEntry> table = buildTable();
    return table;
}

const ShortcutEntry *findShortcut(const QString &id)
{
    for (const ShortcutEntry &e : shortcutTable())
        if (e.id == id)
            return &e;
    return nullptr;
}

QString contextName(ShortcutEntry::Context context)
{
    switch (context) {
    case ShortcutEntry::Context::Window:
        return tr("Anywhere");
    case ShortcutEntry::Context::Timeline:
        return tr("In the timeline");
    case ShortcutEntry::Context::Table:
        return tr("In a table");
    }
    return {};
}

QString keysText(const ShortcutEntry &entry)
{
    QStringList parts;
    for (const QKeySequence &k : entry.keys)
        parts << k.toString(QKeySequence::NativeText);
    return parts.join(QStringLiteral(", "));
}

QAction *makeAction(const QString &id, QObject *parent)
{
    const ShortcutEntry *e = findShortcut(id);
    Q_ASSERT_X(e, "makeAction", "the id is not in the shortcut table");
    auto *action = new QAction(parent);
    action->setObjectName(id);
    if (!e)
        return action;
    action->setText(e->text);
    action->setShortcuts(e->keys);
    action->setShortcutContext(
        e->context == ShortcutEntry::Context::Window ? Qt::WindowShortcut : Qt::WidgetShortcut);
    return action;
}

} // namespace plumb
