#pragma once

#include "adminclient.h"

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QVariantList>

namespace Gatehouse::Console {

// The "Register client" dialog's state: every RFC 7591 field the admin API takes, checked
// as the user types with the server's own rules (docs/oauth.md, ClientRegistry::fromMetadata)
// so the dialog can say what is wrong under the field; submit() posts POST /admin/v1/clients
// only when nothing is. The server still decides: its refusal is shown as it wrote it.
class ClientForm : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString clientName READ clientName WRITE setClientName NOTIFY changed)
    // One redirect URI per line.
    Q_PROPERTY(QString redirectUris READ redirectUris WRITE setRedirectUris NOTIFY changed)
    Q_PROPERTY(QStringList grantTypes READ grantTypes WRITE setGrantTypes NOTIFY changed)
    Q_PROPERTY(QString scope READ scope WRITE setScope NOTIFY changed) // space-separated
    // client_secret_basic, client_secret_post or none (a public client).
    Q_PROPERTY(QString authMethod READ authMethod WRITE setAuthMethod NOTIFY changed)
    Q_PROPERTY(QString logoUri READ logoUri WRITE setLogoUri NOTIFY changed)
    // E-mail addresses, separated by commas, spaces or lines.
    Q_PROPERTY(QString contacts READ contacts WRITE setContacts NOTIFY changed)
    Q_PROPERTY(QString tokenFormat READ tokenFormat WRITE setTokenFormat NOTIFY changed)
    // Seconds, as typed.
    Q_PROPERTY(QString lifetime READ lifetime WRITE setLifetime NOTIFY changed)
    Q_PROPERTY(QString lifetimeText READ lifetimeText NOTIFY changed) // "1 h", "" when invalid

    // What is wrong with each field; "" when nothing is (translated).
    Q_PROPERTY(QString nameError READ nameError NOTIFY changed)
    Q_PROPERTY(QString redirectUrisError READ redirectUrisError NOTIFY changed)
    Q_PROPERTY(QString grantTypesError READ grantTypesError NOTIFY changed)
    Q_PROPERTY(QString scopeError READ scopeError NOTIFY changed)
    Q_PROPERTY(QString logoUriError READ logoUriError NOTIFY changed)
    Q_PROPERTY(QString contactsError READ contactsError NOTIFY changed)
    Q_PROPERTY(QString lifetimeError READ lifetimeError NOTIFY changed)
    Q_PROPERTY(bool valid READ valid NOTIFY changed)
    // True once submit() was tried: from then on every field's error shows.
    Q_PROPERTY(bool attempted READ attempted NOTIFY changed)
    Q_PROPERTY(bool busy READ busy NOTIFY changed)
    // The server's refusal as it wrote it (never translated); "" when none.
    Q_PROPERTY(QString serverError READ serverError NOTIFY changed)

    // [{value, title, explanation, obsolete, obsoleteText, note}] for the grant check boxes.
    Q_PROPERTY(QVariantList grantOptions READ grantOptions NOTIFY optionsChanged)
    // [{value, text, explanation}] for the authentication method.
    Q_PROPERTY(QVariantList authMethodOptions READ authMethodOptions NOTIFY optionsChanged)
    // [{value, text}] for the access token format.
    Q_PROPERTY(QVariantList tokenFormatOptions READ tokenFormatOptions NOTIFY optionsChanged)

public:
    static constexpr int MaxNameLength = 200;
    static constexpr int MinLifetime = 30;
    static constexpr int MaxLifetime = 86400;

    explicit ClientForm(AdminClient *client, QObject *parent = nullptr);

    // Every grant type the registry accepts, in the order the dialog lists them.
    static const QStringList &supportedGrantTypes();
    // Why the registry would refuse this redirect URI (translated); "" when it is allowed.
    static QString redirectUriProblem(const QString &uri);
    // "1 h", "90 s", "1 h 30 min"; "" for a negative value.
    static QString durationText(qint64 seconds);

    QString clientName() const { return m_clientName; }
    void setClientName(const QString &value);
    QString redirectUris() const { return m_redirectUris; }
    void setRedirectUris(const QString &value);
    QStringList grantTypes() const { return m_grantTypes; }
    void setGrantTypes(const QStringList &value);
    QString scope() const { return m_scope; }
    void setScope(const QString &value);
    QString authMethod() const { return m_authMethod; }
    void setAuthMethod(const QString &value);
    QString logoUri() const { return m_logoUri; }
    void setLogoUri(const QString &value);
    QString contacts() const { return m_contacts; }
    void setContacts(const QString &value);
    QString tokenFormat() const { return m_tokenFormat; }
    void setTokenFormat(const QString &value);
    QString lifetime() const { return m_lifetime; }
    void setLifetime(const QString &value);
    QString lifetimeText() const;

    QString nameError() const;
    QString redirectUrisError() const;
    QString grantTypesError() const;
    QString scopeError() const;
    QString logoUriError() const;
    QString contactsError() const;
    QString lifetimeError() const;
    bool valid() const;
    bool attempted() const { return m_attempted; }
    bool busy() const { return m_busy; }
    QString serverError() const { return m_serverError; }

    QVariantList grantOptions() const;
    QVariantList authMethodOptions() const;
    QVariantList tokenFormatOptions() const;

    // Checks or unchecks one grant type (the order of grantTypes() stays the dialog's).
    Q_INVOKABLE void setGrant(const QString &grantType, bool on);
    Q_INVOKABLE bool hasGrant(const QString &grantType) const
    {
        return m_grantTypes.contains(grantType);
    }
    // Back to the defaults: an authorization_code + refresh_token client with a secret.
    Q_INVOKABLE void reset();
    // Registers the client, unless a field is wrong (then only attempted() turns true).
    Q_INVOKABLE void submit();
    // The metadata submit() posts.
    QJsonObject requestBody() const;

    // The language changed: the options' and the errors' texts did.
    void retranslate();

signals:
    void changed();
    void optionsChanged();
    // The registered client as the server answered: RFC 7591 metadata plus, for a
    // confidential client, client_secret (shown once; whoever receives it must not keep it).
    void registered(const QJsonObject &client);

private:
    template <typename T> void assign(T &member, const T &value);
    QStringList redirectUriList() const;
    QStringList contactList() const;

    QPointer<AdminClient> m_client;
    QString m_clientName;
    QString m_redirectUris;
    QStringList m_grantTypes;
    QString m_scope;
    QString m_authMethod;
    QString m_logoUri;
    QString m_contacts;
    QString m_tokenFormat;
    QString m_lifetime;
    bool m_attempted = false;
    bool m_busy = false;
    QString m_serverError;
};

} // namespace Gatehouse::Console
