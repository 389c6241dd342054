#include "consoleappearance.h"

#include "consolelogging.h"
#include "consolesettings.h"

#include <QEvent>
#include <QGuiApplication>
#include <QPalette>

namespace Gatehouse::Console {

namespace {
constexpr auto ThemeKey = "theme";
const QString SystemChoice = QStringLiteral("system");
const QString DarkChoice = QStringLiteral("dark");
} // namespace

ConsoleAppearance::ConsoleAppearance(QObject *parent)
    : QObject(parent), m_systemDark(systemPrefersDark())
{
    // The application's palette changes are sent to the application object; a filter there
    // sees them (and every other event of the GUI thread, passed on untouched).
    if (QCoreApplication *app = QCoreApplication::instance())
        app->installEventFilter(this);
}

ConsoleAppearance::~ConsoleAppearance() = default;

QStringList ConsoleAppearance::available()
{
    return {SystemChoice, QStringLiteral("light"), DarkChoice};
}

bool ConsoleAppearance::paletteIsDark(const QPalette &palette)
{
    return palette.color(QPalette::Active, QPalette::Window).lightness() < 128;
}

bool ConsoleAppearance::gtkThemeIsDark(const QString &gtkTheme)
{
    // GTK_THEME=Name[:variant]: "Adwaita:dark", or a theme that is dark itself ("Adwaita-dark").
    const QString name = gtkTheme.section(QLatin1Char(':'), 0, 0).trimmed();
    const QString variant = gtkTheme.section(QLatin1Char(':'), 1).trimmed();
    return variant.compare(DarkChoice, Qt::CaseInsensitive) == 0 ||
           name.endsWith(QLatin1String("-dark"), Qt::CaseInsensitive);
}

bool ConsoleAppearance::systemPrefersDark()
{
#if defined(Q_OS_UNIX) && !defined(Q_OS_MACOS)
    if (gtkThemeIsDark(qEnvironmentVariable("GTK_THEME")))
        return true;
#endif
    // Only a GUI application has a platform palette (tools and tests may run without one).
    if (qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return paletteIsDark(QGuiApplication::palette());
    return false;
}

bool ConsoleAppearance::dark() const
{
    return m_choice == DarkChoice || (m_choice == SystemChoice && m_systemDark);
}

QVariantList ConsoleAppearance::options() const
{
    return {
        QVariantMap{{"value", SystemChoice},
                    {"text", tr("System (%1)").arg(m_systemDark ? tr("Dark") : tr("Light"))}},
        QVariantMap{{"value", QStringLiteral("light")}, {"text", tr("Light")}},
        QVariantMap{{"value", DarkChoice}, {"text", tr("Dark")}},
    };
}

QString ConsoleAppearance::savedChoice()
{
    const QString saved = consoleSettings().value(QLatin1String(ThemeKey)).toString();
    return available().contains(saved) ? saved : SystemChoice;
}

bool ConsoleAppearance::apply(const QString &choice)
{
    if (!available().contains(choice))
        return false;
    m_choice = choice;
    qCInfo(lcConsole) << "theme" << (dark() ? "dark" : "light")
                      << (choice == SystemChoice ? "(the system's)" : "");
    emit changed();
    return true;
}

bool ConsoleAppearance::choose(const QString &choice)
{
    if (!apply(choice))
        return false;
    QSettings s = consoleSettings();
    if (choice == SystemChoice)
        s.remove(QLatin1String(ThemeKey));
    else
        s.setValue(QLatin1String(ThemeKey), choice);
    return true;
}

void ConsoleAppearance::retranslate()
{
    emit optionsChanged();
    emit changed(); // a selector's index again, after its rows
}

bool ConsoleAppearance::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == QCoreApplication::instance() &&
        (event->type() == QEvent::ApplicationPaletteChange ||
         event->type() == QEvent::PaletteChange))
        updateSystem();
    return QObject::eventFilter(watched, event);
}

void ConsoleAppearance::updateSystem()
{
    const bool systemDark = systemPrefersDark();
    if (systemDark == m_systemDark)
        return;
    m_systemDark = systemDark;
    qCInfo(lcConsole) << "the system's colours are now" << (systemDark ? "dark" : "light");
    emit optionsChanged(); // "System (Dark)"
    emit changed();
}

} // namespace Gatehouse::Console
