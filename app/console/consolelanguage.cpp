#include "consolelanguage.h"

#include "consolelogging.h"
#include "consolesettings.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QQmlEngine>

namespace Gatehouse::Console {

namespace {

constexpr auto LanguageKey = "language";

// Each language named in itself, as a language menu shows it.
QString nativeName(const QString &code)
{
    if (code == QLatin1String("de"))
        return QStringLiteral("Deutsch");
    if (code == QLatin1String("fr"))
        return QStringLiteral("Français");
    return QStringLiteral("English");
}

} // namespace

ConsoleLanguage::ConsoleLanguage(QObject *parent) : QObject(parent) {}

ConsoleLanguage::~ConsoleLanguage()
{
    removeTranslators();
}

QStringList ConsoleLanguage::available()
{
    // One per translations/gatehouse_<lang>.ts (app/console/CMakeLists.txt), English first.
    return {QStringLiteral("en"), QStringLiteral("de"), QStringLiteral("fr")};
}

QString ConsoleLanguage::languageFor(const QLocale &locale)
{
    // uiLanguages() lists the user's preferred languages in order ("de-AT", "de", "en-US" ...).
    for (const QString &tag : locale.uiLanguages()) {
        QString language = tag.section(QLatin1Char('-'), 0, 0).toLower();
        if (available().contains(language))
            return language;
    }
    return QStringLiteral("en");
}

QVariantList ConsoleLanguage::options() const
{
    QVariantList options{
        QVariantMap{{"value", QString()},
                    {"text", tr("System (%1)").arg(nativeName(languageFor(QLocale::system())))}}};
    for (const QString &code : available())
        options.append(QVariantMap{{"value", code}, {"text", nativeName(code)}});
    return options;
}

int ConsoleLanguage::currentIndex() const
{
    return m_choice.isEmpty() ? 0 : int(available().indexOf(m_choice)) + 1;
}

QString ConsoleLanguage::savedChoice()
{
    const QString saved = consoleSettings().value(QLatin1String(LanguageKey)).toString();
    return available().contains(saved) ? saved : QString();
}

bool ConsoleLanguage::apply(const QString &code)
{
    if (!code.isEmpty() && !available().contains(code))
        return false;
    const QLocale system = QLocale::system();
    m_choice = code;
    m_language = code.isEmpty() ? languageFor(system) : code;
    // The system's locale when it speaks the language (de_AT keeps its dates and numbers),
    // else the language's main one (de_DE, fr_FR, en_US).
    const QLocale locale =
        code.isEmpty() || system.language() == QLocale(code).language() ? system : QLocale(code);
    QLocale::setDefault(locale);
    removeTranslators();
    installTranslators();
    qCInfo(lcConsole) << "language" << m_language << "locale" << locale.name()
                      << (code.isEmpty() ? "(the system's)" : "");

    for (const QPointer<QQmlEngine> &engine : std::as_const(m_engines)) {
        if (!engine)
            continue;
        engine->setUiLanguage(m_language);
        engine->retranslate(); // every binding that calls qsTr()
    }
    emit optionsChanged();
    emit changed(); // texts from C++
    return true;
}

bool ConsoleLanguage::choose(const QString &code)
{
    if (!apply(code))
        return false;
    QSettings s = consoleSettings();
    if (code.isEmpty())
        s.remove(QLatin1String(LanguageKey));
    else
        s.setValue(QLatin1String(LanguageKey), code);
    return true;
}

void ConsoleLanguage::addEngine(QQmlEngine *engine)
{
    if (!engine || m_engines.contains(engine))
        return;
    m_engines.append(engine);
    engine->setUiLanguage(m_language);
}

void ConsoleLanguage::installTranslators()
{
    if (m_language == QLatin1String("en"))
        return; // the source texts; Qt's own are English too
    if (m_translator.load(QStringLiteral("gatehouse_") + m_language, QStringLiteral(":/i18n")))
        m_translatorInstalled = QCoreApplication::installTranslator(&m_translator);
    else
        qCWarning(lcConsole) << "no translation for" << m_language << "in :/i18n";
    // Qt's own texts (standard buttons, file dialogs), where the system has them installed.
    if (m_qtTranslator.load(QLocale(m_language), QStringLiteral("qt"), QStringLiteral("_"),
                            QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        m_qtTranslatorInstalled = QCoreApplication::installTranslator(&m_qtTranslator);
}

void ConsoleLanguage::removeTranslators()
{
    if (m_translatorInstalled)
        QCoreApplication::removeTranslator(&m_translator);
    if (m_qtTranslatorInstalled)
        QCoreApplication::removeTranslator(&m_qtTranslator);
    m_translatorInstalled = m_qtTranslatorInstalled = false;
}

} // namespace Gatehouse::Console
