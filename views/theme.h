// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPalette>
#include <QString>

#include <optional>

class QMenu;
class QWidget;

namespace plumb {

// The window's light and dark palettes, and which one to use. Qt 6.4 cannot ask the desktop for its
// colour scheme (QStyleHints::colorScheme is 6.5), so "System" reads the preference where desktops
// leave it: $GTK_THEME, GNOME's color-scheme setting, GTK's settings.ini and KDE's kdeglobals, then
// the platform palette itself. The choice is remembered in QSettings ("theme").
enum class Theme { System, Light, Dark };

[[nodiscard]] QString themeName(Theme theme); // "system", "light", "dark"
[[nodiscard]] std::optional<Theme> parseTheme(const QString &name);

// What the desktop says about dark mode; each field empty where it says nothing.
struct DesktopHints {
    QString gtkThemeEnv; // $GTK_THEME, e.g. "Adwaita:dark"
    QString gnomeColorScheme; // `gsettings get org.gnome.desktop.interface color-scheme`, e.g. 'prefer-dark'
    QString gnomeGtkTheme; // `gsettings get org.gnome.desktop.interface gtk-theme`
    QString gtkSettingsIni; // the text of $XDG_CONFIG_HOME/gtk-3.0/settings.ini
    QString kdeGlobals; // the text of $XDG_CONFIG_HOME/kdeglobals
    bool platformPaletteDark = false; // the palette Qt's platform theme gave is dark already
};

[[nodiscard]] DesktopHints readDesktopHints();
[[nodiscard]] bool desktopPrefersDark(const DesktopHints &hints);

[[nodiscard]] QPalette lightPalette();
[[nodiscard]] QPalette darkPalette();
[[nodiscard]] bool isDark(const QPalette &palette); // the window background is darker than its text

// Sets the application's palette for `theme` (System: as the desktop prefers) and, when it overrides
// the platform's palette, the Fusion style, which draws with the palette's colours.
void applyTheme(Theme theme);

[[nodiscard]] Theme savedTheme();
void saveTheme(Theme theme);

// View > Theme: System / Light / Dark, checkable; choosing one applies and remembers it.
[[nodiscard]] QMenu *createThemeMenu(QWidget *parent);

} // namespace plumb
