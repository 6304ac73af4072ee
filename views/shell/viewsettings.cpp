// SPDX-License-Identifier: GPL-3.0-or-later
#include "shell/viewsettings.h"

#include <QAbstractButton>
#include <QAction>
#include <QCheckBox>
#include <QEvent>
#include <QHeaderView>
#include <QMainWindow>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeView>

namespace plumb {

namespace {

const QString kWidths = QStringLiteral("columnWidths");

QList<int> readWidths(const QString &key)
{
    QList<int> widths;
    for (const QVariant &v : QSettings().value(ViewSettings::settingsKey(key, kWidths)).toList())
        widths << v.toInt();
    return widths;
}

// Saves a header's widths after the user resized a section, and puts them back after the model is
// reset (when views size their columns to the new contents).
class HeaderBinder final : public QObject {
public:
    HeaderBinder(QHeaderView *header, const QString &key)
        : QObject(header)
        , m_header(header)
        , m_key(key)
    {
        header->viewport()->installEventFilter(this);
        connect(header, &QHeaderView::sectionCountChanged, this, &HeaderBinder::applyLater);
        if (header->model())
            connect(header->model(), &QAbstractItemModel::modelReset, this, &HeaderBinder::applyLater);
        apply();
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        // A drag of a section edge ends in a release; a double click on an edge sizes to contents.
        if (event->type() == QEvent::MouseButtonRelease || event->type() == QEvent::MouseButtonDblClick)
            QTimer::singleShot(0, this, &HeaderBinder::save);
        return QObject::eventFilter(watched, event);
    }

private:
    void applyLater() { QTimer::singleShot(0, this, &HeaderBinder::apply); }

    void apply()
    {
        const QList<int> widths = readWidths(m_key);
        if (widths.size() != m_header->count())
            return; // saved for another set of columns
        const bool stretch = m_header->stretchLastSection();
        for (int i = 0; i < widths.size(); ++i)
            if (!(stretch && i == widths.size() - 1) && widths[i] > 0)
                m_header->resizeSection(i, widths[i]);
    }

    void save()
    {
        QVariantList widths;
        for (int i = 0; i < m_header->count(); ++i)
            widths << m_header->sectionSize(i);
        QSettings().setValue(ViewSettings::settingsKey(m_key, kWidths), widths);
    }

    QHeaderView *m_header;
    QString m_key;
};

class WindowBinder final : public QObject {
public:
    WindowBinder(QMainWindow *window, const QString &key)
        : QObject(window)
        , m_window(window)
        , m_key(key)
    {
        QSettings settings;
        window->restoreGeometry(
            settings.value(ViewSettings::settingsKey(key, QStringLiteral("geometry"))).toByteArray());
        window->restoreState(
            settings.value(ViewSettings::settingsKey(key, QStringLiteral("state"))).toByteArray());
        window->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_window && event->type() == QEvent::Close) {
            QSettings settings;
            settings.setValue(
                ViewSettings::settingsKey(m_key, QStringLiteral("geometry")), m_window->saveGeometry());
            settings.setValue(
                ViewSettings::settingsKey(m_key, QStringLiteral("state")), m_window->saveState());
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QMainWindow *m_window;
    QString m_key;
};

} // namespace

QString ViewSettings::settingsKey(const QString &key, const QString &what)
{
    return QStringLiteral("view/%1/%2").arg(key, what);
}

bool ViewSettings::hasColumnWidths(const QString &key)
{
    return QSettings().contains(settingsKey(key, kWidths));
}

void ViewSettings::remember(QHeaderView *header, const QString &key)
{
    new HeaderBinder(header, key);
}

void ViewSettings::remember(QSplitter *splitter, const QString &key)
{
    const QString k = settingsKey(key, QStringLiteral("sizes"));
    splitter->restoreState(QSettings().value(k).toByteArray());
    // splitterMoved is emitted only for the user's moves of a handle.
    QObject::connect(splitter, &QSplitter::splitterMoved, splitter,
        [splitter, k] { QSettings().setValue(k, splitter->saveState()); });
}

void ViewSettings::remember(QTabWidget *tabs, const QString &key)
{
    const QString k = settingsKey(key, QStringLiteral("tab"));
    const QVariant saved = QSettings().value(k);
    if (saved.isValid() && saved.toInt() >= 0 && saved.toInt() < tabs->count())
        tabs->setCurrentIndex(saved.toInt());
    QObject::connect(
        tabs, &QTabWidget::currentChanged, tabs, [k](int index) { QSettings().setValue(k, index); });
}

void ViewSettings::remember(QAbstractButton *checkable, const QString &key)
{
    const QString k = settingsKey(key, QStringLiteral("checked"));
    const QVariant saved = QSettings().value(k);
    if (saved.isValid())
        checkable->setChecked(saved.toBool());
    QObject::connect(
        checkable, &QAbstractButton::toggled, checkable, [k](bool on) { QSettings().setValue(k, on); });
}

void ViewSettings::remember(QAction *checkable, const QString &key)
{
    const QString k = settingsKey(key, QStringLiteral("checked"));
    const QVariant saved = QSettings().value(k);
    if (saved.isValid())
        checkable->setChecked(saved.toBool());
    QObject::connect(checkable, &QAction::toggled, checkable, [k](bool on) { QSettings().setValue(k, on); });
}

void ViewSettings::rememberAll(QWidget *root, const QString &prefix)
{
    auto keyFor = [&prefix](const char *kind, qsizetype n) {
        return QStringLiteral("%1/%2#%3").arg(prefix, QLatin1String(kind)).arg(n);
    };
    const auto splitters = root->findChildren<QSplitter *>();
    for (qsizetype i = 0; i < splitters.size(); ++i)
        remember(splitters[i], keyFor("splitter", i));
    const auto views = root->findChildren<QAbstractItemView *>();
    qsizetype tables = 0;
    for (QAbstractItemView *view : views) {
        if (auto *table = qobject_cast<QTableView *>(view))
            remember(table->horizontalHeader(), keyFor("table", tables++));
        else if (auto *tree = qobject_cast<QTreeView *>(view))
            remember(tree->header(), keyFor("table", tables++));
    }
    const auto tabs = root->findChildren<QTabWidget *>();
    for (qsizetype i = 0; i < tabs.size(); ++i)
        remember(tabs[i], keyFor("tabs", i));
    const auto boxes = root->findChildren<QCheckBox *>();
    for (qsizetype i = 0; i < boxes.size(); ++i)
        remember(boxes[i], keyFor("check", i));
}

void ViewSettings::remember(QMainWindow *window, const QString &key)
{
    new WindowBinder(window, key);
}

} // namespace plumb
