#pragma once

#include "adminclient.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

namespace Gatehouse::Console {

// The cluster's live settings (GET/PUT /admin/v1/cluster/settings): anonymous access, the
// authorization modes and the admission plugins. Read on every (re)connect and kept current by
// cluster.settings.changed events; a change applies at once on the server.
class ClusterSettingsState : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool loaded READ loaded NOTIFY changed)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(bool anonymousAuth READ anonymousAuth NOTIFY changed)
    Q_PROPERTY(QStringList authorizationModes READ authorizationModes NOTIFY changed)
    Q_PROPERTY(QStringList admissionPlugins READ admissionPlugins NOTIFY changed)
    // "Node, RBAC · admission: NamespaceLifecycle, NodeRestriction, ServiceAccount"
    Q_PROPERTY(QString summary READ summary NOTIFY summaryChanged)
    // The server's refusal as it wrote it (never translated); "" when none.
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    explicit ClusterSettingsState(AdminClient *client, QObject *parent = nullptr);

    bool loaded() const { return m_loaded; }
    bool busy() const { return m_busy; }
    bool anonymousAuth() const { return m_anonymousAuth; }
    QStringList authorizationModes() const { return m_authorizationModes; }
    QStringList admissionPlugins() const { return m_admissionPlugins; }
    QString summary() const;
    QString error() const { return m_error; }

    Q_INVOKABLE void reload();
    // PUT {"anonymousAuth": on}. Whatever the answer, changed() follows, so a switch bound to
    // anonymousAuth shows the server's value again after a refusal.
    Q_INVOKABLE void setAnonymousAuth(bool on);
    Q_INVOKABLE void clearError();
    // The language changed: summary() did (changed() is not emitted: it explains again).
    void retranslate() { emit summaryChanged(); }

    // The settings as the API writes them ({anonymousAuth, authorizationModes, ...}).
    void apply(const QJsonObject &settings);

signals:
    void changed();
    void summaryChanged(); // with changed(), and when the language changes
    void busyChanged();
    void errorChanged();

private:
    void handleEvent(const AdminEvent &event);
    void setBusy(bool busy);
    void setError(const QString &error);

    QPointer<AdminClient> m_client;
    bool m_loaded = false;
    bool m_busy = false;
    bool m_anonymousAuth = false;
    QStringList m_authorizationModes;
    QStringList m_admissionPlugins;
    QString m_error;
};

} // namespace Gatehouse::Console
