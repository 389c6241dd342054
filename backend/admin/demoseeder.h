#pragma once

#include <QJsonObject>
#include <QObject>
#include <QUrl>

#include <functional>

class QNetworkAccessManager;

namespace Gatehouse::Core {
class Clock;
class Database;
class SettingsStore;
} // namespace Gatehouse::Core

namespace Gatehouse::Admin {

// `gatehouse --demo` (docs/demo.md): on the first start of a data directory in demo mode, fills
// it with what a training session needs, through the backend's own admin API (so every object
// is made exactly as an administrator would make it, and the audit log shows the demo as its
// actor): a namespace and RBAC objects, two users, three OAuth clients, a second customer and
// test orders that run through their lifecycle to the demo webhook receiver. Objects that
// exist already are left alone; "demo-seeded" in the settings store marks it done.
class DemoSeeder : public QObject
{
    Q_OBJECT
public:
    // The demo users' password, documented in docs/demo.md and shown by the guided tour: a
    // demo backend is for training, never for real users.
    static constexpr const char *Password = "gatehouse-demo";

    // holdsAccounts: the data directory has users or OAuth clients already; then nothing is
    // made (unless an earlier demo run began it).
    DemoSeeder(QUrl adminUrl, QString adminToken, Core::SettingsStore &settings,
               const Core::Clock &clock, bool holdsAccounts, QObject *parent = nullptr);
    ~DemoSeeder() override;

    // Runs the steps one after another; finished() at the end (also when already seeded).
    void start();
    bool alreadySeeded() const;

    // A start without demo mode on a data directory the demo filled (its markers): a warning
    // names each demo user that still signs in with the public password (not locked by an
    // administrator), checked on a pool thread (argon2id) so that the start does not wait.
    static void warnOfDemoUsersLeft(Core::Database &database, const Core::SettingsStore &settings,
                                    const QString &serviceUrl);

signals:
    // failures: the steps the backend refused (with its message), empty when all went well.
    void finished(const QStringList &failures);

private:
    struct Step
    {
        QByteArray method;
        QString path;
        QByteArray body;
        QByteArray contentType;
        QString what;
    };
    void next();

    QUrl m_adminUrl;
    QString m_adminToken; // never logged
    Core::SettingsStore &m_settings;
    const Core::Clock &m_clock; // when the demo data was made
    bool m_holdsAccounts;
    QNetworkAccessManager *m_nam;
    QList<Step> m_steps;
    QStringList m_failures;
};

} // namespace Gatehouse::Admin
