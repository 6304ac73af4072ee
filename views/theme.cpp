// SPDX-License-Identifier: GPL-3.0-or-later
#include "theme.h"

#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleFactory>

#include <memory>

namespace plumb {

namespace {

const QString kThemeKey = QStringLiteral("theme");
constexpr int kGsettingsTimeoutMs = 500; // a desktop without a running dconf answers at once or never

QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.read(1 << 20)) : QString();
}

QString gsettings(const QString &key)
{
    // Without a session bus there is no dconf to ask (and gsettings could wait for one).
    const QString exe = QStandardPaths::findExecutable(QStringLiteral("gsettings"));
    if (exe.isEmpty() || qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        return {};
    QProcess p;
    p.start(exe, { QStringLiteral("get"), QStringLiteral("org.gnome.desktop.interface"), key });
    if (!p.waitForFinished(kGsettingsTimeoutMs)) {
        p.kill();
        p.waitForFinished(kGsettingsTimeoutMs);
        return {};
    }
    return p.exitCode() == 0 ? QString::fromUtf8(p.readAllStandardOutput()).trimmed() : QString();
}

// The value of `key` in an INI text (any section), or empty.
QString iniValue(const QString &text, const QString &key)
{
    const QRegularExpression re(
        QStringLiteral("^\\s*") + QRegularExpression::escape(key) + QStringLiteral("\\s*=\\s*(.*?)\\s*$"),
        QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = re.match(text);
    return m.hasMatch() ? m.captured(1) : QString();
}

bool saysDark(const QString &s)
{
    return s.contains(QLatin1String("dark"), Qt::CaseInsensitive);
}

// The palette the platform gave before we changed it, and the style that came with it.
struct Original {
    QPalette palette;
    QString style;
};

const Original &original()
{
    static const Original o { QApplication::palette(), QApplication::style()->name() };
    return o;
}

Theme g_applied = Theme::System; // what applyTheme() last applied (--theme is applied, not saved)

} // namespace

QString themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

std::optional<Theme> parseTheme(const QString &name)
{
    for (Theme t : { Theme::System, Theme::Light, Theme::Dark })
        if (name.compare(themeName(t), Qt::CaseInsensitive) == 0)
            return t;
    return std::nullopt;
}

DesktopHints readDesktopHints()
{
    DesktopHints h;
    h.gtkThemeEnv = qEnvironmentVariable("GTK_THEME");
    h.gnomeColorScheme = gsettings(QStringLiteral("color-scheme"));
    h.gnomeGtkTheme = gsettings(QStringLiteral("gtk-theme"));
    const QString config = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    h.gtkSettingsIni = readText(config + QStringLiteral("/gtk-3.0/settings.ini"));
    h.kdeGlobals = readText(config + QStringLiteral("/kdeglobals"));
    h.platformPaletteDark = isDark(original().palette);
    return h;
}

bool desktopPrefersDark(const DesktopHints &h)
{
    // The most specific word first: an explicit GNOME colour scheme outranks a theme's name.
    if (!h.gtkThemeEnv.isEmpty())
        return saysDark(h.gtkThemeEnv);
    if (h.gnomeColorScheme.contains(QLatin1String("prefer-dark")))
        return true;
    if (h.gnomeColorScheme.contains(QLatin1String("prefer-light")))
        return false;
    if (saysDark(h.gnomeGtkTheme))
        return true;
    const QString preferDark
        = iniValue(h.gtkSettingsIni, QStringLiteral("gtk-application-prefer-dark-theme"));
    if (preferDark == QLatin1String("1")
        || preferDark.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0)
        return true;
    if (saysDark(iniValue(h.gtkSettingsIni, QStringLiteral("gtk-theme-name"))))
        return true;
    if (saysDark(iniValue(h.kdeGlobals, QStringLiteral("ColorScheme"))))
        return true;
    return h.platformPaletteDark;
}

QPalette lightPalette()
{
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    return fusion->standardPalette();
}

QPalette darkPalette()
{
    const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x20, 0x24), text(0xe6, 0xe8, 0xeb),
        dim(0x8a, 0x90, 0x99), button(0x34, 0x37, 0x3c), highlight(0x3d, 0x7e, 0xd6), link(0x6c, 0xb0, 0xff);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x29, 0x2e));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x43));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, dim);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x48, 0x4c, 0x52));
    p.setColor(QPalette::Midlight, QColor(0x3c, 0x3f, 0x45));
    p.setColor(QPalette::Mid, QColor(0x55, 0x59, 0x60));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1c));
    p.setColor(QPalette::Shadow, QColor(0x0c, 0x0d, 0x0f));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, link);
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xff));
    for (QPalette::ColorRole role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, QColor(0x7a, 0x7f, 0x87));
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x4a, 0x4d, 0x52));
    return p;
}

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightnessF() < palette.color(QPalette::WindowText).lightnessF();
}

void applyTheme(Theme theme)
{
    const Original &o = original();
    g_applied = theme;
    const bool dark
        = theme == Theme::Dark || (theme == Theme::System && desktopPrefersDark(readDesktopHints()));
    if (dark == isDark(o.palette)) {
        QApplication::setStyle(o.style);
        QApplication::setPalette(o.palette);
        return;
    }
    QApplication::setStyle(QStringLiteral("Fusion"));
    QApplication::setPalette(dark ? darkPalette() : lightPalette());
}

Theme savedTheme()
{
    return parseTheme(QSettings().value(kThemeKey).toString()).value_or(Theme::System);
}

void saveTheme(Theme theme)
{
    QSettings().setValue(kThemeKey, themeName(theme));
}

QMenu *createThemeMenu(QWidget *parent)
{
    auto *menu = new QMenu(QApplication::translate("plumb::Theme", "T&heme"), parent);
    menu->setObjectName(QStringLiteral("themeMenu"));
    auto *group = new QActionGroup(menu);
    const Theme current = g_applied;
    const std::pair<Theme, const char *> entries[]
        = { { Theme::System, QT_TRANSLATE_NOOP("plumb::Theme", "&System") },
              { Theme::Light, QT_TRANSLATE_NOOP("plumb::Theme", "&Light") },
              { Theme::Dark, QT_TRANSLATE_NOOP("plumb::Theme", "&Dark") } };
    for (const auto &[theme, label] : entries) {
        QAction *a = menu->addAction(QApplication::translate("plumb::Theme", label));
        a->setObjectName(QStringLiteral("theme_") + themeName(theme));
        a->setCheckable(true);
        a->setChecked(theme == current);
        group->addAction(a);
        QObject::connect(a, &QAction::triggered, menu, [theme = theme] {
            saveTheme(theme);
            applyTheme(theme);
        });
    }
    return menu;
}

} // namespace plumb
