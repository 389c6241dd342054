#pragma once

#include <QObject>
#include <QVariantList>

class QPalette;

namespace Gatehouse::Console {

// Light or dark colours for the console, switchable while it runs; by default the system's.
// Theme.qml binds its colours (and Main.qml the controls' palette) to dark().
//
// Qt 6.4 has no QStyleHints::colorScheme(), so the system's preference is read from what it
// does give: the platform palette (QGuiApplication::palette(): a window colour darker than
// mid-grey means dark) at start and whenever it changes (QEvent::ApplicationPaletteChange,
// which the platform theme sends when the desktop switches), and on Linux GTK_THEME naming a
// dark variant (GTK's own override: "Adwaita:dark", or a dark theme like "Adwaita-dark"). The
// freedesktop settings portal (org.freedesktop.appearance color-scheme) is not read: Qt 6.4 does
// not, and it is not worth a D-Bus dependency; desktops that switch it switch the GTK/Qt palette
// too.
//
// The user's choice is kept in QSettings (gatehouse/console.conf, key "theme"; no key: follow
// the system), like ConsoleLanguage's.
class ConsoleAppearance : public QObject
{
    Q_OBJECT
    // "system", "light" or "dark": what the user chose.
    Q_PROPERTY(QString choice READ choice NOTIFY changed)
    // The colours in use are the dark ones.
    Q_PROPERTY(bool dark READ dark NOTIFY changed)
    // The system prefers dark colours (what "system" follows).
    Q_PROPERTY(bool systemDark READ systemDark NOTIFY changed)
    // {value, text} per choice for a selector.
    Q_PROPERTY(QVariantList options READ options NOTIFY optionsChanged)
    // The row of choice() in options().
    Q_PROPERTY(int currentIndex READ currentIndex NOTIFY changed)

public:
    explicit ConsoleAppearance(QObject *parent = nullptr);
    ~ConsoleAppearance() override;

    // The choices: "system" first, then "light" and "dark".
    static QStringList available();
    // What the system prefers, by the rules above.
    static bool paletteIsDark(const QPalette &palette);
    static bool gtkThemeIsDark(const QString &gtkTheme);
    static bool systemPrefersDark();

    QString choice() const { return m_choice; }
    bool dark() const;
    bool systemDark() const { return m_systemDark; }
    QVariantList options() const;
    int currentIndex() const { return int(available().indexOf(m_choice)); }

    // The choice kept in QSettings ("system" when there is none, or an unknown one).
    static QString savedChoice();
    // Applies choice for this run, without saving it; false (and nothing changes) for one that
    // is not available(). For --theme and at start.
    bool apply(const QString &choice);
    // What the selector calls: applies choice and saves it as the user's.
    Q_INVOKABLE bool choose(const QString &choice);

    // The language changed: the options' texts did.
    void retranslate();

signals:
    void optionsChanged(); // before changed(), so a selector has its rows before its index
    void changed();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateSystem();

    QString m_choice = QStringLiteral("system");
    bool m_systemDark = false;
};

} // namespace Gatehouse::Console
