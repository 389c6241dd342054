#pragma once

#include "adminclient.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QVariantList>

namespace Gatehouse::Console {

// Effective access, read the other way round: what an OAuth client may get
// (POST /admin/v1/oauth/access {client_id}), what a user may get through every client that
// may act for them ({username}), and what a cluster identity may do
// (POST /admin/v1/cluster/access {user, groups} or {anonymous}); each with its sources.
class AccessView : public QObject
{
    Q_OBJECT
    // "client", "user" or "cluster"; "" before the first load.
    Q_PROPERTY(QString mode READ mode NOTIFY changed)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString error READ error NOTIFY changed)
    Q_PROPERTY(bool loaded READ loaded NOTIFY changed)
    // "Billing (finY…) · grants: client_credentials", "alice (user e959…)", "bob · groups: …".
    Q_PROPERTY(QString subjectText READ subjectText NOTIFY changed)
    // [{scope, sourceText, detail, client}] (client: the client it comes through; user mode).
    Q_PROPERTY(QVariantList scopes READ scopes NOTIFY changed)
    // [{audience, sourceText, detail}] (client mode).
    Q_PROPERTY(QVariantList audiences READ audiences NOTIFY changed)
    // [{token, claim, value, sourceText, detail}]: the client_credentials token's claims, or
    // every client's access and id token claims for the user.
    Q_PROPERTY(QVariantList claims READ claims NOTIFY changed)
    // [{scopeText, verb, resourceText, viaText, viaCount}] (cluster mode).
    Q_PROPERTY(QVariantList cells READ cells NOTIFY changed)
    Q_PROPERTY(bool privileged READ privileged NOTIFY changed)
    // User mode: who the user is in the cluster, through the clients allowed to act for it
    // ("cluster" of the answer): "In the cluster: <name> · groups: … · through: …", or why
    // no token of theirs reaches it.
    Q_PROPERTY(QString clusterText READ clusterText NOTIFY changed)
    // User mode: groups the cluster drops (system: groups without an oidc-group-mappings
    // entry), with why; empty when none.
    Q_PROPERTY(QString clusterDroppedText READ clusterDroppedText NOTIFY changed)
    Q_PROPERTY(QStringList notes READ notes NOTIFY changed)

public:
    explicit AccessView(AdminClient *client, QObject *parent = nullptr);

    QString mode() const { return m_mode; }
    bool busy() const { return m_busy; }
    QString error() const { return m_error; }
    bool loaded() const { return !m_answer.isEmpty(); }
    QString subjectText() const { return m_subjectText; }
    QVariantList scopes() const { return m_scopes; }
    QVariantList audiences() const { return m_audiences; }
    QVariantList claims() const { return m_claims; }
    QVariantList cells() const { return m_cells; }
    bool privileged() const;
    QString clusterText() const { return m_clusterText; }
    QString clusterDroppedText() const { return m_clusterDroppedText; }
    QStringList notes() const;

    Q_INVOKABLE void loadClient(const QString &clientId);
    Q_INVOKABLE void loadUser(const QString &username);
    // groups: comma or space separated.
    Q_INVOKABLE void loadCluster(const QString &user, const QString &groups, bool anonymous);
    Q_INVOKABLE void clear();
    // The language changed: the answer's texts are made again.
    void retranslate();

    // API answers (public for tests).
    void applyOAuth(const QString &mode, const QJsonObject &answer);
    void applyCluster(const QJsonObject &answer);
    // "ClusterRoleBinding devs → ClusterRole node-labeler rule 0 (Group devs)".
    static QString viaText(const QJsonObject &via);

signals:
    void busyChanged();
    void changed();

private:
    void load(const QString &mode, const QString &path, const QJsonObject &body);
    void setBusy(bool busy);

    QPointer<AdminClient> m_client;
    QString m_mode;
    bool m_busy = false;
    quint64 m_generation = 0;
    QString m_error;
    QJsonObject m_answer;
    QString m_subjectText;
    QVariantList m_scopes;
    QVariantList m_audiences;
    QVariantList m_claims;
    QVariantList m_cells;
    QString m_clusterText;
    QString m_clusterDroppedText;
};

} // namespace Gatehouse::Console
