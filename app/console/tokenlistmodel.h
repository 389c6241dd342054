#pragma once

#include "livelistmodel.h"

#include <QPointer>
#include <QTimer>

namespace Gatehouse::Console {

class ClientListModel;

// The active OAuth tokens (GET /admin/v1/tokens: not revoked, not expired), newest first.
// oauth.token.issued reads the list again (the event names only a hash prefix),
// oauth.token.revoked drops the row at once; rows leave when they expire. Also mints a
// client_credentials token for demos (POST /admin/v1/tokens).
class TokenListModel : public Gatehouse::Console::LiveListModel
{
    Q_OBJECT
    Q_PROPERTY(bool minting READ minting NOTIFY mintChanged)
    // The last minted access token (a demo token: it is also put into the JWT decoder).
    Q_PROPERTY(QString mintedToken READ mintedToken NOTIFY mintChanged)
    // "Bearer · expires in 1 h · scope orders:read"
    Q_PROPERTY(QString mintedSummary READ mintedSummary NOTIFY mintChanged)
    // Why the last mint was refused, as the server wrote it (never translated).
    Q_PROPERTY(QString mintError READ mintError NOTIFY mintChanged)
    // Whether the minted token was copied (copyMintedToken); a new token is not.
    Q_PROPERTY(bool mintedTokenCopied READ mintedTokenCopied NOTIFY mintChanged)

public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        ShortIdRole,
        KindRole, // access, refresh
        KindTextRole,
        FormatRole, // jwt, opaque
        ClientIdRole,
        ClientNameRole,  // from the client list; "" when unknown
        SubjectTextRole, // the username, else the subject
        ScopeRole,
        AudienceRole,
        IssuedTextRole,
        ExpiresTextRole,
    };
    Q_ENUM(Role)

    explicit TokenListModel(AdminClient *client, QObject *parent = nullptr);

    QHash<int, QByteArray> roleNames() const override;
    // Where client names come from (optional).
    void setClients(ClientListModel *clients);

    bool minting() const { return m_minting; }
    QString mintedToken() const { return m_mintedToken; }
    QString mintedSummary() const;
    QString mintError() const { return m_mintError; }
    bool mintedTokenCopied() const { return m_mintedTokenCopied; }

    // DELETE /tokens/{id}; a refresh token takes its whole family with it.
    Q_INVOKABLE void revoke(const QString &tokenId);
    // POST /tokens {"client_id", "scope"?}: a client_credentials token; on success minted().
    Q_INVOKABLE void mint(const QString &clientId, const QString &scope);
    Q_INVOKABLE void clearMinted();
    // The minted token onto the clipboard, marked for clipboard managers to leave out and
    // cleared again (secretclipboard.h).
    Q_INVOKABLE void copyMintedToken();
    void retranslate() override;

signals:
    void mintChanged();
    void minted(const QString &accessToken);

protected:
    QVariant value(const QJsonObject &row, int role) const override;
    ApiCall listCall() const override;
    bool accepts(const QJsonObject &row) const override;
    QString sortTimeKey() const override { return QStringLiteral("issuedAt"); }
    void applyEvent(const AdminEvent &event) override;

private:
    void dropExpired();
    void dropRowsWithPrefix(const QString &prefix);

    QPointer<ClientListModel> m_clients;
    QTimer m_reloadSoon; // coalesces a burst of oauth.token.* events into one reload
    QTimer m_expiry;
    bool m_minting = false;
    bool m_mintedTokenCopied = false;
    QString m_mintedToken;
    QJsonObject m_mintAnswer; // for mintedSummary()
    QString m_mintError;
};

} // namespace Gatehouse::Console
