#pragma once

#include "serverstate.h"

#include <QStringList>

namespace Gatehouse::Console {

// The cluster's live settings (GET/PUT /admin/v1/cluster/settings): anonymous access, the
// authorization modes and the admission plugins. Read on every (re)connect and kept current by
// cluster.settings.changed events; a change applies at once on the server.
class ClusterSettingsState : public Gatehouse::Console::ServerState
{
    Q_OBJECT
    Q_PROPERTY(bool anonymousAuth READ anonymousAuth NOTIFY changed)
    Q_PROPERTY(QStringList authorizationModes READ authorizationModes NOTIFY changed)
    Q_PROPERTY(QStringList admissionPlugins READ admissionPlugins NOTIFY changed)
    // "Node, RBAC · admission: NamespaceLifecycle, NodeRestriction, ServiceAccount"
    Q_PROPERTY(QString summary READ summary NOTIFY summaryChanged)

public:
    explicit ClusterSettingsState(AdminClient *client, QObject *parent = nullptr);

    bool anonymousAuth() const { return m_anonymousAuth; }
    QStringList authorizationModes() const { return m_authorizationModes; }
    QStringList admissionPlugins() const { return m_admissionPlugins; }
    QString summary() const;

    // PUT {"anonymousAuth": on}. Whatever the answer, changed() follows, so a switch bound to
    // anonymousAuth shows the server's value again after a refusal.
    Q_INVOKABLE void setAnonymousAuth(bool on);
    // The language changed: summary() did (changed() is not emitted: it explains again).
    void retranslate() { emit summaryChanged(); }

signals:
    void summaryChanged(); // with changed(), and when the language changes

protected:
    // The settings as the API writes them ({anonymousAuth, authorizationModes, ...}).
    void read(const QJsonObject &settings) override;

private:
    bool m_anonymousAuth = false;
    QStringList m_authorizationModes;
    QStringList m_admissionPlugins;
};

} // namespace Gatehouse::Console
