// SPDX-License-Identifier: GPL-3.0-or-later
// The light and dark palettes: the desktop's preference read from its hints, View > Theme, and charts and
// tables that follow the palette (a chart drawn dark under the dark theme, light under the light one).
#include "charts/stepbreakdownchart.h"
#include "theme.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

using namespace plumb;

class TestTheme : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("theme"));
    }

    void names()
    {
        for (Theme t : { Theme::System, Theme::Light, Theme::Dark })
            QCOMPARE(parseTheme(themeName(t)), t);
        QCOMPARE(parseTheme(QStringLiteral("Dark")), Theme::Dark);
        QVERIFY(!parseTheme(QStringLiteral("solarized")));
    }

    void prefersDark_data()
    {
        QTest::addColumn<QString>("gtkEnv");
        QTest::addColumn<QString>("colorScheme");
        QTest::addColumn<QString>("gnomeTheme");
        QTest::addColumn<QString>("gtkIni");
        QTest::addColumn<QString>("kde");
        QTest::addColumn<bool>("platformDark");
        QTest::addColumn<bool>("dark");
        const QString none;
        QTest::newRow("nothing said") << none << none << none << none << none << false << false;
        QTest::newRow("GTK_THEME dark")
            << QStringLiteral("Adwaita:dark") << none << none << none << none << false << true;
        QTest::newRow("GTK_THEME light wins over the rest")
            << QStringLiteral("Adwaita") << QStringLiteral("'prefer-dark'") << none << none << none << true
            << false;
        QTest::newRow("GNOME prefer-dark")
            << none << QStringLiteral("'prefer-dark'") << none << none << none << false << true;
        QTest::newRow("GNOME prefer-light over a dark theme name")
            << none << QStringLiteral("'prefer-light'") << QStringLiteral("'Adwaita-dark'") << none << none
            << true << false;
        QTest::newRow("GNOME default, dark theme name")
            << none << QStringLiteral("'default'") << QStringLiteral("'Yaru-dark'") << none << none << false
            << true;
        QTest::newRow("settings.ini prefer dark")
            << none << none << none << QStringLiteral("[Settings]\ngtk-application-prefer-dark-theme = 1\n")
            << none << false << true;
        QTest::newRow("settings.ini dark theme")
            << none << none << none << QStringLiteral("[Settings]\ngtk-theme-name=Arc-Dark\n") << none
            << false << true;
        QTest::newRow("settings.ini light")
            << none << none << none
            << QStringLiteral("[Settings]\ngtk-theme-name=Adwaita\ngtk-application-prefer-dark-theme=0\n")
            << none << false << false;
        QTest::newRow("KDE Breeze Dark")
            << none << none << none << none << QStringLiteral("[General]\nColorScheme=BreezeDark\n") << false
            << true;
        QTest::newRow("KDE Breeze") << none << none << none << none
                                    << QStringLiteral("[General]\nColorScheme=BreezeClassic\n") << false
                                    << false;
        QTest::newRow("platform palette dark") << none << none << none << none << none << true << true;
    }

    void prefersDark()
    {
        QFETCH(QString, gtkEnv);
        QFETCH(QString, colorScheme);
        QFETCH(QString, gnomeTheme);
        QFETCH(QString, gtkIni);
        QFETCH(QString, kde);
        QFETCH(bool, platformDark);
        QFETCH(bool, dark);
        DesktopHints h;
        h.gtkThemeEnv = gtkEnv;
        h.gnomeColorScheme = colorScheme;
        h.gnomeGtkTheme = gnomeTheme;
        h.gtkSettingsIni = gtkIni;
        h.kdeGlobals = kde;
        h.platformPaletteDark = platformDark;
        QCOMPARE(desktopPrefersDark(h), dark);
    }

    void palettes()
    {
        QVERIFY(isDark(darkPalette()));
        QVERIFY(!isDark(lightPalette()));
        // Text stands out from its background in both.
        for (const QPalette &p : { lightPalette(), darkPalette() }) {
            QVERIFY(
                std::abs(p.color(QPalette::Base).lightnessF() - p.color(QPalette::Text).lightnessF()) > 0.6);
            QVERIFY(
                std::abs(p.color(QPalette::Window).lightnessF() - p.color(QPalette::WindowText).lightnessF())
                > 0.6);
        }
    }

    void applyDarkAndLight()
    {
        applyTheme(Theme::Dark);
        QVERIFY(isDark(QApplication::palette()));
        QVERIFY(QApplication::palette().color(QPalette::Window).lightnessF()
            < QApplication::palette().color(QPalette::WindowText).lightnessF());
        applyTheme(Theme::Light);
        QVERIFY(!isDark(QApplication::palette()));
    }

    // A chart draws its background, axes and text from the palette, and again when the theme changes.
    void chartFollowsTheme()
    {
        applyTheme(Theme::Light);
        StepBreakdownChart chart;
        chart.resize(400, 300);
        const auto corner = [&chart] { return chart.grab().toImage().pixelColor(3, 3); };
        QTRY_VERIFY2(corner().lightnessF() > 0.8, qPrintable(corner().name()));
        applyTheme(Theme::Dark);
        QTRY_VERIFY2(corner().lightnessF() < 0.3, qPrintable(corner().name()));
        applyTheme(Theme::Light);
        QTRY_VERIFY2(corner().lightnessF() > 0.8, qPrintable(corner().name()));
    }

    void menuRemembersChoice()
    {
        QWidget parent;
        QMenu *menu = createThemeMenu(&parent);
        auto *dark = menu->findChild<QAction *>(QStringLiteral("theme_dark"));
        QVERIFY(dark);
        QVERIFY(menu->findChild<QAction *>(QStringLiteral("theme_light")));
        QVERIFY(menu->findChild<QAction *>(QStringLiteral("theme_system")));
        dark->trigger();
        QVERIFY(isDark(QApplication::palette()));
        QCOMPARE(savedTheme(), Theme::Dark);
        QMenu *again = createThemeMenu(&parent);
        QVERIFY(again->findChild<QAction *>(QStringLiteral("theme_dark"))->isChecked());
        again->findChild<QAction *>(QStringLiteral("theme_light"))->trigger();
        QCOMPARE(savedTheme(), Theme::Light);
        QVERIFY(!isDark(QApplication::palette()));
    }
};

QTEST_MAIN(TestTheme)
#include "tst_theme.moc"
