#pragma once

#include "livelistmodel.h"

#include <QVariantList>

namespace Gatehouse::Console {

// The OAuth clients (GET /admin/v1/clients), newest first. Registering (ClientForm) and
// rotating a secret hand the new client_secret to QML once, through secretIssued(); the
// model never keeps it. The list follows the backend's oauth.client.* events (registered,
// updated, secret-rotated: the client is read again; deleted: its row goes), so clients made
// elsewhere (the CLI, RFC 7591 registration, demo seeding) appear at once.
class ClientListModel : public Gatehouse::Console::LiveListModel
{
    Q_OBJECT
    // [{value, text}] of the clients that can get a client_credentials token (confidential,
    // with that grant): the Tokens page mints for these.
    Q_PROPERTY(QVariantList mintOptions READ mintOptions NOTIFY mintOptionsChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)

public:
    enum Role {
        IdRole = Qt::UserRole + 1, // client_id
        NameRole,
        AuthMethodRole, // client_secret_basic, client_secret_post, none
        ConfidentialRole,
        GrantTypesRole,             // QStringList as registered
        GrantNamesRole,             // QStringList, short names ("device_code" for the URN)
        HasObsoleteGrantRole,       // password
        ScopeRole,                  // space-separated, "" when none
        RedirectUrisRole,           // QStringList
        PostLogoutRedirectUrisRole, // QStringList: where a sign-out sends users
        TokenFormatRole,            // jwt, opaque
        LifetimeTextRole,           // "1 h"
        CreatedTextRole,
        ContactsTextRole, // "a@example.com, b@example.com"
        LogoUriRole,
        // Registered itself (RFC 7591) with redirect URIs no administrator fixed: errors and
        // sign-outs show a link instead of redirecting (docs/oauth.md).
        RedirectsUnvettedRole,
        // The end of its secret and keys (client_secret_expires_at: issued by an admin token
        // that expires, docs/admin-tokens.md): "" when they do not end, else the time.
        CredentialsEndTextRole,
        CredentialsEndedRole, // that end has passed (when the row was read)
    };
    Q_ENUM(Role)

    explicit ClientListModel(AdminClient *client, QObject *parent = nullptr);

    QHash<int, QByteArray> roleNames() const override;
    QVariantList mintOptions() const;
    bool busy() const { return m_busy; }

    // "device_code" for urn:ietf:params:oauth:grant-type:device_code; others as they are.
    static QString grantName(const QString &grantType);

    Q_INVOKABLE QString nameOf(const QString &clientId) const;
    // A registration's answer (ClientForm::registered): adds the row and, for a confidential
    // client, hands its secret on through secretIssued().
    void addRegistered(const QJsonObject &client);
    // POST /clients/{id}/rotate-secret; on success secretIssued() (the old secret stops
    // working at once).
    Q_INVOKABLE void rotateSecret(const QString &clientId);
    // PUT /clients/{id} with the client's metadata as listed: an administrator's save, which
    // vouches for the redirect URIs of a client that registered itself (redirectsUnvetted
    // turns false; docs/oauth.md, "Redirects a stranger registered").
    Q_INVOKABLE void vouchForRedirects(const QString &clientId);
    // DELETE /clients/{id}: the client and its tokens are gone; on success clientRemoved().
    Q_INVOKABLE void remove(const QString &clientId);
    // For the secret dialog's copy buttons: the client id as plain text, the secret marked
    // for clipboard managers to leave out and cleared again (secretclipboard.h).
    Q_INVOKABLE void copyToClipboard(const QString &text) const;
    Q_INVOKABLE void copySecretToClipboard(const QString &secret) const;

signals:
    void mintOptionsChanged();
    void busyChanged();
    // secret is "" for a public client (it has none); rotated tells a rotation from a new
    // registration. Shown once and not kept.
    void secretIssued(const QString &clientId, const QString &clientName, const QString &secret,
                      bool rotated);
    void clientRemoved(const QString &clientId);

protected:
    QVariant value(const QJsonObject &row, int role) const override;
    QString idOf(const QJsonObject &row) const override;
    ApiCall listCall() const override;
    bool listedBefore(const QJsonObject &a, const QJsonObject &b) const override;
    QJsonObject normalize(const QJsonObject &object) const override;
    void applyEvent(const AdminEvent &event) override;

private:
    void setBusy(bool busy);

    bool m_busy = false;
};

} // namespace Gatehouse::Console
