#pragma once

#include "adminclient.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QVariantList>

namespace Gatehouse::Console {

// A dry run of the token endpoint (POST /admin/v1/tokens/preview, docs/oauth.md "Token
// preview"): what a client would get now for a grant, scope, resource/audience and (user
// grants) a username, every claim with its value, where it comes from and why. Nothing is
// issued. Also compares a decoded JWT's payload with what its client would get now.
class TokenPreview : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString clientId READ clientId WRITE setClientId NOTIFY inputChanged)
    Q_PROPERTY(QString clientName READ clientName WRITE setClientName NOTIFY inputChanged)
    Q_PROPERTY(QString grantType READ grantType WRITE setGrantType NOTIFY inputChanged)
    Q_PROPERTY(QString scope READ scope WRITE setScope NOTIFY inputChanged)
    Q_PROPERTY(QString resource READ resource WRITE setResource NOTIFY inputChanged)
    Q_PROPERTY(QString audience READ audience WRITE setAudience NOTIFY inputChanged)
    Q_PROPERTY(QString username READ username WRITE setUsername NOTIFY inputChanged)
    // The grant asks for a user (authorization_code, password, refresh_token, device).
    Q_PROPERTY(bool userGrant READ userGrant NOTIFY inputChanged)
    // [{value, text}] of the grant types a preview can run (jwt-bearer cannot: it would spend
    // the assertion), limited to the client's when set with setClientGrants.
    Q_PROPERTY(QVariantList grantOptions READ grantOptions NOTIFY inputChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString error READ error NOTIFY resultChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY resultChanged)
    Q_PROPERTY(QString format READ format NOTIFY resultChanged) // jwt, opaque
    Q_PROPERTY(QString note READ note NOTIFY resultChanged)
    // [{claim, value, source, sourceText, detail}] in claim order.
    Q_PROPERTY(QVariantList claims READ claims NOTIFY resultChanged)
    Q_PROPERTY(QString alsoIssuedText READ alsoIssuedText NOTIFY resultChanged)
    // After compare(): true, and [{claim, token, now}] of the claims that differ (iat, exp,
    // jti, nbf and auth_time always do and are left out).
    Q_PROPERTY(bool comparing READ comparing NOTIFY resultChanged)
    Q_PROPERTY(QVariantList differences READ differences NOTIFY resultChanged)

public:
    explicit TokenPreview(AdminClient *client, QObject *parent = nullptr);

    QString clientId() const { return m_clientId; }
    void setClientId(const QString &id);
    QString clientName() const { return m_clientName; }
    void setClientName(const QString &name);
    QString grantType() const { return m_grantType; }
    void setGrantType(const QString &grant);
    QString scope() const { return m_scope; }
    void setScope(const QString &scope);
    QString resource() const { return m_resource; }
    void setResource(const QString &resource);
    QString audience() const { return m_audience; }
    void setAudience(const QString &audience);
    QString username() const { return m_username; }
    void setUsername(const QString &username);
    bool userGrant() const;
    QVariantList grantOptions() const;
    bool busy() const { return m_busy; }
    QString error() const { return m_error; }
    bool loaded() const { return !m_result.isEmpty(); }
    QString format() const;
    QString note() const;
    QVariantList claims() const { return m_claims; }
    QString alsoIssuedText() const;
    bool comparing() const { return !m_compareTo.isEmpty(); }
    QVariantList differences() const { return m_differences; }

    // Starts over for a client: its id, name and grant types (the first previewable one
    // chosen), no result.
    Q_INVOKABLE void startFor(const QString &clientId, const QString &clientName,
                              const QStringList &grantTypes);
    Q_INVOKABLE void preview();
    // Previews for the JWT's client and grant (client_credentials when sub is the client,
    // else authorization_code for the subject's username), scope and audience, and lists the
    // claims that differ from payload.
    Q_INVOKABLE void compare(const QVariantMap &payload);
    Q_INVOKABLE void clear();

    // The body preview() posts.
    QJsonObject requestBody() const;
    // An API answer (public for tests).
    void apply(const QJsonObject &answer);
    // The language changed: the claims' source texts are made again.
    void retranslate();

    static QString sourceText(const QString &source);
    static bool isUserGrant(const QString &grant);

signals:
    void inputChanged();
    void busyChanged();
    void resultChanged();

private:
    void inputEdited();
    void setBusy(bool busy);

    QPointer<AdminClient> m_client;
    QString m_clientId;
    QString m_clientName;
    QStringList m_clientGrants;
    QString m_grantType = QStringLiteral("client_credentials");
    QString m_scope;
    QString m_resource;
    QString m_audience;
    QString m_username;
    bool m_busy = false;
    quint64 m_generation = 0;
    QString m_error;
    QJsonObject m_result;
    QVariantList m_claims;
    QJsonObject m_compareTo;
    QVariantList m_differences;
};

} // namespace Gatehouse::Console
