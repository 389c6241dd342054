#include "clientlistmodel.h"
#include "fields.h"
#include "secretclipboard.h"

#include "clientform.h"
#include "orderstatus.h"

#include <QJsonArray>
#include <QUrl>

namespace Gatehouse::Console {

namespace {

QStringList strings(const QJsonObject &o, const char *key)
{
    QStringList out;
    for (const auto &value : o.value(QLatin1String(key)).toArray())
        out.append(value.toString());
    return out;
}

bool canMint(const QJsonObject &client)
{
    return str(client, "token_endpoint_auth_method") != QLatin1String("none") &&
           strings(client, "grant_types").contains(QLatin1String("client_credentials"));
}

} // namespace

ClientListModel::ClientListModel(AdminClient *client, QObject *parent)
    : LiveListModel(client, parent)
{
    connect(this, &QAbstractItemModel::modelReset, this, &ClientListModel::mintOptionsChanged);
    connect(this, &QAbstractItemModel::rowsInserted, this, &ClientListModel::mintOptionsChanged);
    connect(this, &QAbstractItemModel::rowsRemoved, this, &ClientListModel::mintOptionsChanged);
    connect(this, &QAbstractItemModel::dataChanged, this, &ClientListModel::mintOptionsChanged);
}

QHash<int, QByteArray> ClientListModel::roleNames() const
{
    return {
        {IdRole, "clientId"},
        {NameRole, "name"},
        {AuthMethodRole, "authMethod"},
        {ConfidentialRole, "confidential"},
        {GrantTypesRole, "grantTypes"},
        {GrantNamesRole, "grantNames"},
        {HasObsoleteGrantRole, "hasObsoleteGrant"},
        {ScopeRole, "scope"},
        {RedirectUrisRole, "redirectUris"},
        {PostLogoutRedirectUrisRole, "postLogoutRedirectUris"},
        {TokenFormatRole, "tokenFormat"},
        {LifetimeTextRole, "lifetimeText"},
        {CreatedTextRole, "createdText"},
        {ContactsTextRole, "contactsText"},
        {LogoUriRole, "logoUri"},
        {RedirectsUnvettedRole, "redirectsUnvetted"},
        {CredentialsEndTextRole, "credentialsEndText"},
        {CredentialsEndedRole, "credentialsEnded"},
    };
}

QVariantList ClientListModel::mintOptions() const
{
    QVariantList options;
    for (const QJsonObject &client : rows()) {
        if (canMint(client))
            options.append(QVariantMap{{QStringLiteral("value"), str(client, "client_id")},
                                       {QStringLiteral("text"), str(client, "client_name")}});
    }
    return options;
}

QString ClientListModel::grantName(const QString &grantType)
{
    static const QString urnPrefix = QStringLiteral("urn:ietf:params:oauth:grant-type:");
    return grantType.startsWith(urnPrefix) ? grantType.mid(urnPrefix.size()) : grantType;
}

QString ClientListModel::nameOf(const QString &clientId) const
{
    const int row = indexOfId(clientId);
    return row >= 0 ? str(rowAt(row), "client_name") : QString();
}

void ClientListModel::addRegistered(const QJsonObject &client)
{
    upsert(client); // normalize() leaves the secret out
    emit secretIssued(str(client, "client_id"), str(client, "client_name"),
                      str(client, "client_secret"), false);
}

void ClientListModel::rotateSecret(const QString &clientId)
{
    if (clientId.isEmpty() || m_busy)
        return;
    setBusy(true);
    runAction(
        {"POST", QStringLiteral("/clients/%1/rotate-secret").arg(clientId), {}, {}},
        [this](const QJsonObject &answer) {
            upsert(answer);
            emit secretIssued(str(answer, "client_id"), str(answer, "client_name"),
                              str(answer, "client_secret"), true);
        },
        [this] { setBusy(false); });
}

void ClientListModel::vouchForRedirects(const QString &clientId)
{
    const int row = indexOfId(clientId);
    if (row < 0 || m_busy)
        return;
    setBusy(true);
    runAction(
        {"PUT",
         QStringLiteral("/clients/%1").arg(QString::fromLatin1(QUrl::toPercentEncoding(clientId))),
         {},
         rowAt(row)},
        [this](const QJsonObject &answer) { upsert(answer); }, [this] { setBusy(false); });
}

void ClientListModel::remove(const QString &clientId)
{
    if (clientId.isEmpty() || m_busy)
        return;
    setBusy(true);
    runAction(
        {"DELETE", QStringLiteral("/clients/%1").arg(clientId), {}, {}},
        [this, clientId](const QJsonObject &) {
            removeRowAt(indexOfId(clientId));
            emit clientRemoved(clientId);
        },
        [this] { setBusy(false); });
}

void ClientListModel::applyEvent(const AdminEvent &event)
{
    if (!event.type.startsWith(QLatin1String("oauth.client.")))
        return;
    const QString id = event.data.value(QLatin1String("clientId")).toString();
    if (id.isEmpty())
        return;
    if (event.type == QLatin1String("oauth.client.deleted")) {
        if (const int row = indexOfId(id); row >= 0)
            removeRowAt(row);
        return;
    }
    fetchAndUpsert(
        QStringLiteral("/clients/%1").arg(QString::fromLatin1(QUrl::toPercentEncoding(id))));
}

void ClientListModel::copyToClipboard(const QString &text) const
{
    Console::copyToClipboard(text);
}

void ClientListModel::copySecretToClipboard(const QString &secret) const
{
    Console::copySecretToClipboard(secret);
}

QVariant ClientListModel::value(const QJsonObject &row, int role) const
{
    switch (role) {
    case IdRole:
        return str(row, "client_id");
    case NameRole:
    case Qt::DisplayRole:
        return str(row, "client_name");
    case AuthMethodRole:
        return str(row, "token_endpoint_auth_method");
    case ConfidentialRole:
        return str(row, "token_endpoint_auth_method") != QLatin1String("none");
    case GrantTypesRole:
        return strings(row, "grant_types");
    case GrantNamesRole: {
        QStringList names;
        for (const QString &grant : strings(row, "grant_types"))
            names.append(grantName(grant));
        return names;
    }
    case HasObsoleteGrantRole:
        return strings(row, "grant_types").contains(QLatin1String("password"));
    case ScopeRole:
        return str(row, "scope");
    case RedirectUrisRole:
        return strings(row, "redirect_uris");
    case PostLogoutRedirectUrisRole:
        return strings(row, "post_logout_redirect_uris");
    case TokenFormatRole:
        return str(row, "access_token_format");
    case LifetimeTextRole:
        return ClientForm::durationText(row.value(QLatin1String("access_token_lifetime")).toInt());
    case CreatedTextRole:
        return ConsoleFormat::time(QDateTime::fromSecsSinceEpoch(
            row.value(QLatin1String("client_id_issued_at")).toInteger(), Qt::UTC));
    case ContactsTextRole:
        return strings(row, "contacts").join(QStringLiteral(", "));
    case LogoUriRole:
        return str(row, "logo_uri");
    case RedirectsUnvettedRole:
        return row.value(QLatin1String("self_registered")).toBool() &&
               !row.value(QLatin1String("redirects_vetted")).toBool(true);
    case CredentialsEndTextRole: {
        const qint64 end = row.value(QLatin1String("client_secret_expires_at")).toInteger();
        return end > 0 ? ConsoleFormat::time(QDateTime::fromSecsSinceEpoch(end, Qt::UTC))
                       : QString();
    }
    case CredentialsEndedRole: {
        const qint64 end = row.value(QLatin1String("client_secret_expires_at")).toInteger();
        return end > 0 && end <= QDateTime::currentSecsSinceEpoch();
    }
    default:
        return {};
    }
}

QString ClientListModel::idOf(const QJsonObject &row) const
{
    return str(row, "client_id");
}

ApiCall ClientListModel::listCall() const
{
    return {"GET", QStringLiteral("/clients"), {}, {}};
}

bool ClientListModel::listedBefore(const QJsonObject &a, const QJsonObject &b) const
{
    const qint64 at = a.value(QLatin1String("client_id_issued_at")).toInteger();
    const qint64 bt = b.value(QLatin1String("client_id_issued_at")).toInteger();
    if (at != bt)
        return at > bt;
    return str(a, "client_name").compare(str(b, "client_name"), Qt::CaseInsensitive) < 0;
}

QJsonObject ClientListModel::normalize(const QJsonObject &object) const
{
    QJsonObject row = object;
    row.remove(QStringLiteral("client_secret")); // shown once, never kept
    return row;
}

void ClientListModel::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged();
}

} // namespace Gatehouse::Console
