#pragma once

#include <QList>
#include <QLocale>
#include <QObject>
#include <QPointer>
#include <QTranslator>
#include <QVariantList>

class QQmlEngine;

namespace Gatehouse::Console {

// The console's language, switchable while it runs: English (the source texts), German or
// French. By default the system's language (English when the system's is none of these); the
// user's choice is kept in QSettings (gatehouse/console.conf, key "language"). Applying a
// language installs our translator (qrc:/i18n/gatehouse_<lang>.qm) and Qt's own
// (qt_<lang>.qm: standard dialog buttons, ...), makes the matching QLocale the default (so
// dates and numbers follow), retranslates every QML engine it knows and emits changed(), on
// which ConsoleServices refreshes the models whose texts come from C++.
class ConsoleLanguage : public QObject
{
    Q_OBJECT
    // "" (follow the system), "en", "de" or "fr": what the user chose.
    Q_PROPERTY(QString choice READ choice NOTIFY changed)
    // The language in use: "en", "de" or "fr".
    Q_PROPERTY(QString language READ language NOTIFY changed)
    // {value, text} per choice for a selector; each language is named in itself.
    Q_PROPERTY(QVariantList options READ options NOTIFY optionsChanged)
    // The row of choice() in options().
    Q_PROPERTY(int currentIndex READ currentIndex NOTIFY changed)

public:
    explicit ConsoleLanguage(QObject *parent = nullptr);
    ~ConsoleLanguage() override;

    // The languages the console has ("en" first: the source texts).
    static QStringList available();
    // The available language for a locale ("en" when it has none of them).
    static QString languageFor(const QLocale &locale);

    QString choice() const { return m_choice; }
    QString language() const { return m_language; }
    QVariantList options() const;
    int currentIndex() const;

    // The choice kept in QSettings ("" when there is none).
    static QString savedChoice();
    // Applies code ("" = the system's language) for this run, without saving it; false (and
    // nothing changes) for a language the console does not have. For --lang and at start.
    bool apply(const QString &code);
    // What the selector calls: applies code and saves it as the user's choice.
    Q_INVOKABLE bool choose(const QString &code);

    // An engine to retranslate on every change (ConsoleServices::publishTo adds its engine).
    void addEngine(QQmlEngine *engine);

signals:
    void optionsChanged(); // before changed(), so a selector has its rows before its index
    void changed();

private:
    void installTranslators();
    void removeTranslators();

    QString m_choice;
    QString m_language = QStringLiteral("en");
    QTranslator m_translator;   // ours
    QTranslator m_qtTranslator; // Qt's
    bool m_translatorInstalled = false;
    bool m_qtTranslatorInstalled = false;
    QList<QPointer<QQmlEngine>> m_engines;
};

} // namespace Gatehouse::Console
