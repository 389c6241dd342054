#include "clientform.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>

namespace Gatehouse::Console {

namespace {

const QString AuthorizationCode = QStringLiteral("authorization_code");
const QString ClientCredentials = QStringLiteral("client_credentials");
const QString Password = QStringLiteral("password");
const QString PublicMethod = QStringLiteral("none");

QStringList splitOn(const QString &text, const QRegularExpression &separator)
{
    QStringList out;
    for (const QString &part : text.split(separator, Qt::SkipEmptyParts)) {
        const QString trimmed = part.trimmed();
        if (!trimmed.isEmpty())
            out.append(trimmed);
    }
    return out;
}

} // namespace

ClientForm::ClientForm(AdminClient *client, QObject *parent) : QObject(parent), m_client(client)
{
    reset();
}

const QStringList &ClientForm::supportedGrantTypes()
{
    static const QStringList grants{
        AuthorizationCode,
        ClientCredentials,
        QStringLiteral("refresh_token"),
        QStringLiteral("urn:ietf:params:oauth:grant-type:device_code"),
        QStringLiteral("urn:ietf:params:oauth:grant-type:jwt-bearer"),
        QStringLiteral("urn:ietf:params:oauth:grant-type:token-exchange"),
        Password,
    };
    return grants;
}

QString ClientForm::redirectUriProblem(const QString &uri)
{
    // The registry's rule (RFC 8252 §7, OAuth 2.1 §2.3.1): absolute, no fragment, https;
    // http only to a loopback address; or a reverse-domain private-use scheme.
    const QUrl url(uri, QUrl::StrictMode);
    if (!url.isValid() || url.isRelative() || uri.contains(QLatin1Char(' ')))
        return tr("not an absolute URL");
    if (url.hasFragment())
        return tr("a redirect URI may not have a #fragment");
    const QString scheme = url.scheme();
    const QString host = url.host();
    const bool loopback = host == QLatin1String("127.0.0.1") ||
                          host == QLatin1String("localhost") || host == QLatin1String("::1");
    if (scheme == QLatin1String("http") && !loopback)
        return tr("http only for loopback (127.0.0.1, localhost, [::1]); use https");
    if (scheme != QLatin1String("https") && scheme != QLatin1String("http") &&
        !scheme.contains(QLatin1Char('.')))
        return tr("use https, or a reverse-domain scheme such as com.example.app:/callback");
    return {};
}

QString ClientForm::durationText(qint64 seconds)
{
    if (seconds < 0)
        return {};
    if (seconds < 60 || (seconds < 3600 && seconds % 60 != 0))
        return seconds < 60 ? tr("%1 s").arg(seconds)
                            : tr("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
    if (seconds < 3600)
        return tr("%1 min").arg(seconds / 60);
    const qint64 minutes = (seconds % 3600) / 60;
    return minutes == 0 ? tr("%1 h").arg(seconds / 3600)
                        : tr("%1 h %2 min").arg(seconds / 3600).arg(minutes);
}

template <typename T> void ClientForm::assign(T &member, const T &value)
{
    if (member == value)
        return;
    member = value;
    m_serverError.clear(); // it was about what the user just changed
    emit changed();
}

void ClientForm::setClientName(const QString &value)
{
    assign(m_clientName, value);
}

void ClientForm::setRedirectUris(const QString &value)
{
    assign(m_redirectUris, value);
}

void ClientForm::setGrantTypes(const QStringList &value)
{
    QStringList ordered;
    for (const QString &grant : supportedGrantTypes())
        if (value.contains(grant))
            ordered.append(grant);
    for (const QString &grant : value) // unknown ones too: the error names them
        if (!ordered.contains(grant))
            ordered.append(grant);
    assign(m_grantTypes, ordered);
}

void ClientForm::setGrant(const QString &grantType, bool on)
{
    QStringList next = m_grantTypes;
    if (on && !next.contains(grantType))
        next.append(grantType);
    else if (!on)
        next.removeAll(grantType);
    setGrantTypes(next);
}

void ClientForm::setScope(const QString &value)
{
    assign(m_scope, value);
}

void ClientForm::setAuthMethod(const QString &value)
{
    assign(m_authMethod, value);
}

void ClientForm::setLogoUri(const QString &value)
{
    assign(m_logoUri, value);
}

void ClientForm::setContacts(const QString &value)
{
    assign(m_contacts, value);
}

void ClientForm::setTokenFormat(const QString &value)
{
    assign(m_tokenFormat, value);
}

void ClientForm::setLifetime(const QString &value)
{
    assign(m_lifetime, value);
}

QString ClientForm::lifetimeText() const
{
    bool ok = false;
    const int seconds = m_lifetime.trimmed().toInt(&ok);
    return ok && lifetimeError().isEmpty() ? durationText(seconds) : QString();
}

QStringList ClientForm::redirectUriList() const
{
    static const QRegularExpression lines(QStringLiteral("[\r\n]+"));
    return splitOn(m_redirectUris, lines);
}

QStringList ClientForm::contactList() const
{
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    return splitOn(m_contacts, separators);
}

QString ClientForm::nameError() const
{
    const QString name = m_clientName.trimmed();
    if (name.isEmpty())
        return tr("A name is required.");
    if (name.size() > MaxNameLength)
        return tr("At most %1 characters (now %2).").arg(MaxNameLength).arg(name.size());
    return {};
}

QString ClientForm::redirectUrisError() const
{
    const QStringList uris = redirectUriList();
    const QStringList lines = m_redirectUris.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString uri = lines.at(i).trimmed();
        if (uri.isEmpty())
            continue;
        if (const QString problem = redirectUriProblem(uri); !problem.isEmpty())
            return tr("Line %1: %2.").arg(i + 1).arg(problem);
    }
    if (uris.isEmpty() && m_grantTypes.contains(AuthorizationCode))
        return tr("authorization_code needs at least one redirect URI.");
    return {};
}

QString ClientForm::grantTypesError() const
{
    if (m_grantTypes.isEmpty())
        return tr("Choose at least one grant type.");
    for (const QString &grant : m_grantTypes)
        if (!supportedGrantTypes().contains(grant))
            return tr("%1 is not a supported grant type.").arg(grant);
    if (m_grantTypes.contains(ClientCredentials) && m_authMethod == PublicMethod)
        return tr("client_credentials needs a confidential client: choose client_secret_basic "
                  "or client_secret_post.");
    return {};
}

QString ClientForm::scopeError() const
{
    // RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), separated by spaces.
    static const QRegularExpression token(QStringLiteral("^[\\x21\\x23-\\x5B\\x5D-\\x7E]+\\z"));
    for (const QString &scope : m_scope.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        if (!token.match(scope).hasMatch())
            return tr("%1 is not a scope: scopes are separated by spaces and use printable "
                      "ASCII without \" or \\.")
                .arg(scope);
    return {};
}

QString ClientForm::logoUriError() const
{
    const QString text = m_logoUri.trimmed();
    if (text.isEmpty())
        return {};
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() ||
        (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")))
        return tr("An absolute https:// URL, or leave it empty.");
    return {};
}

QString ClientForm::contactsError() const
{
    // RFC 7591 §2: contacts are e-mail addresses.
    static const QRegularExpression email(QStringLiteral("^[^@\\s]+@[^@\\s]+\\z"));
    for (const QString &contact : contactList())
        if (!email.match(contact).hasMatch())
            return tr("\"%1\" is not an e-mail address.").arg(contact);
    return {};
}

QString ClientForm::lifetimeError() const
{
    bool ok = false;
    const int seconds = m_lifetime.trimmed().toInt(&ok);
    if (!ok)
        return tr("A whole number of seconds.");
    if (seconds < MinLifetime || seconds > MaxLifetime)
        return tr("%1 to %2 seconds (24 h).").arg(MinLifetime).arg(MaxLifetime);
    return {};
}

bool ClientForm::valid() const
{
    return nameError().isEmpty() && redirectUrisError().isEmpty() && grantTypesError().isEmpty() &&
           scopeError().isEmpty() && logoUriError().isEmpty() && contactsError().isEmpty() &&
           lifetimeError().isEmpty();
}

QVariantList ClientForm::grantOptions() const
{
    auto option = [](const QString &value, const QString &title, const QString &explanation,
                     const QString &note = QString(), bool obsolete = false) {
        return QVariantMap{{QStringLiteral("value"), value},
                           {QStringLiteral("title"), title},
                           {QStringLiteral("explanation"), explanation},
                           {QStringLiteral("note"), note},
                           {QStringLiteral("obsolete"), obsolete}};
    };
    const QStringList &grants = supportedGrantTypes();
    return {
        option(grants.at(0), QStringLiteral("authorization_code"),
               tr("A user signs in and consents in the browser; the app trades the code for "
                  "tokens (with PKCE).")),
        option(grants.at(1), QStringLiteral("client_credentials"),
               tr("A service acts on its own behalf with its client secret; no user involved.")),
        option(grants.at(2), QStringLiteral("refresh_token"),
               tr("Get new access tokens without asking the user again.")),
        option(grants.at(3), QStringLiteral("device_code"),
               tr("A device without a browser shows a code; the user approves on a phone or "
                  "computer.")),
        option(grants.at(4), QStringLiteral("jwt-bearer"),
               tr("Trade a signed JWT assertion from a trusted issuer for an access token (RFC "
                  "7523).")),
        option(grants.at(5), QStringLiteral("token-exchange"),
               tr("Swap one token for another, e.g. to call a downstream service (RFC 8693).")),
        option(grants.at(6), QStringLiteral("password"),
               tr("The app collects the user's password itself and sends it to the token "
                  "endpoint."),
               tr("obsolete — OAuth 2.1 removes it"), true),
    };
}

QVariantList ClientForm::authMethodOptions() const
{
    auto option = [](const char *value, const QString &text, const QString &explanation) {
        return QVariantMap{{QStringLiteral("value"), QLatin1String(value)},
                           {QStringLiteral("text"), text},
                           {QStringLiteral("explanation"), explanation}};
    };
    return {
        option("client_secret_basic", tr("client_secret_basic (confidential)"),
               tr("A server-side app; it sends its secret in the HTTP Basic header.")),
        option("client_secret_post", tr("client_secret_post (confidential)"),
               tr("A server-side app; it sends its secret in the form body.")),
        option("none", tr("none (public)"),
               tr("A browser or mobile app that cannot keep a secret; no secret is issued and "
                  "authorization_code requires PKCE.")),
    };
}

QVariantList ClientForm::tokenFormatOptions() const
{
    return {
        QVariantMap{{QStringLiteral("value"), QStringLiteral("jwt")},
                    {QStringLiteral("text"), tr("JWT (self-contained, signed)")}},
        QVariantMap{{QStringLiteral("value"), QStringLiteral("opaque")},
                    {QStringLiteral("text"), tr("Opaque (checked by introspection)")}},
    };
}

void ClientForm::reset()
{
    m_clientName.clear();
    m_redirectUris.clear();
    m_grantTypes = QStringList{AuthorizationCode, QStringLiteral("refresh_token")};
    m_scope.clear();
    m_authMethod = QStringLiteral("client_secret_basic");
    m_logoUri.clear();
    m_contacts.clear();
    m_tokenFormat = QStringLiteral("jwt");
    m_lifetime = QStringLiteral("3600");
    m_attempted = false;
    m_serverError.clear();
    emit changed();
}

QJsonObject ClientForm::requestBody() const
{
    QJsonObject body{
        {QStringLiteral("client_name"), m_clientName.trimmed()},
        {QStringLiteral("redirect_uris"), QJsonArray::fromStringList(redirectUriList())},
        {QStringLiteral("grant_types"), QJsonArray::fromStringList(m_grantTypes)},
        {QStringLiteral("token_endpoint_auth_method"), m_authMethod},
        {QStringLiteral("access_token_format"), m_tokenFormat},
        {QStringLiteral("access_token_lifetime"), m_lifetime.trimmed().toInt()},
    };
    if (const QStringList scopes = m_scope.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        !scopes.isEmpty())
        body.insert(QStringLiteral("scope"), scopes.join(QLatin1Char(' ')));
    if (const QString logo = m_logoUri.trimmed(); !logo.isEmpty())
        body.insert(QStringLiteral("logo_uri"), logo);
    if (const QStringList contacts = contactList(); !contacts.isEmpty())
        body.insert(QStringLiteral("contacts"), QJsonArray::fromStringList(contacts));
    return body;
}

void ClientForm::submit()
{
    if (m_busy)
        return;
    m_attempted = true;
    m_serverError.clear();
    if (!valid() || !m_client) {
        emit changed(); // the dialog shows every field's error now
        return;
    }
    m_busy = true;
    emit changed();
    m_client->callApi({"POST", QStringLiteral("/clients"), {}, requestBody()}, this,
                      [this](const ApiResult &result) {
                          m_busy = false;
                          if (result.ok()) {
                              const QJsonObject client = result.object();
                              reset();
                              emit registered(client);
                              return;
                          }
                          if (!result.canceled)
                              m_serverError = result.errorMessage;
                          emit changed();
                      });
}

void ClientForm::retranslate()
{
    emit optionsChanged();
    emit changed();
}

} // namespace Gatehouse::Console
