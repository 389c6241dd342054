#include "tokenlistmodel.h"
#include "fields.h"
#include "secretclipboard.h"

#include "clientform.h"
#include "clientlistmodel.h"
#include "orderstatus.h"

namespace Gatehouse::Console {

TokenListModel::TokenListModel(AdminClient *client, QObject *parent) : LiveListModel(client, parent)
{
    m_reloadSoon.setSingleShot(true);
    m_reloadSoon.setInterval(250);
    connect(&m_reloadSoon, &QTimer::timeout, this, &TokenListModel::reload);
    m_expiry.setInterval(std::chrono::seconds(5));
    connect(&m_expiry, &QTimer::timeout, this, &TokenListModel::dropExpired);
    m_expiry.start();
}

QHash<int, QByteArray> TokenListModel::roleNames() const
{
    return {
        {IdRole, "tokenId"},
        {ShortIdRole, "shortId"},
        {KindRole, "kind"},
        {KindTextRole, "kindText"},
        {FormatRole, "format"},
        {ClientIdRole, "clientId"},
        {ClientNameRole, "clientName"},
        {SubjectTextRole, "subjectText"},
        {ScopeRole, "scope"},
        {AudienceRole, "audience"},
        {IssuedTextRole, "issuedText"},
        {ExpiresTextRole, "expiresText"},
    };
}

void TokenListModel::setClients(ClientListModel *clients)
{
    if (m_clients)
        m_clients->disconnect(this);
    m_clients = clients;
    if (!clients)
        return;
    auto refreshNames = [this] {
        if (count() > 0)
            emit dataChanged(index(0), index(count() - 1), {ClientNameRole});
    };
    connect(clients, &QAbstractItemModel::modelReset, this, refreshNames);
    connect(clients, &QAbstractItemModel::rowsInserted, this, refreshNames);
}

void TokenListModel::revoke(const QString &tokenId)
{
    if (tokenId.isEmpty())
        return;
    runAction({"DELETE", QStringLiteral("/tokens/%1").arg(tokenId), {}, {}},
              [this, tokenId](const QJsonObject &) {
                  const int row = indexOfId(tokenId);
                  const bool family = str(rowAt(row), "kind") == QLatin1String("refresh");
                  removeRowAt(row);
                  if (family)
                      m_reloadSoon.start(); // its family's other tokens went with it
              });
}

void TokenListModel::mint(const QString &clientId, const QString &scope)
{
    if (clientId.isEmpty() || m_minting || !client())
        return;
    QJsonObject body{{QStringLiteral("client_id"), clientId}};
    if (const QString s = scope.simplified(); !s.isEmpty())
        body.insert(QStringLiteral("scope"), s);
    m_minting = true;
    m_mintError.clear();
    emit mintChanged();
    client()->callApi({"POST", QStringLiteral("/tokens"), {}, body}, this,
                      [this](const ApiResult &result) {
                          m_minting = false;
                          if (result.ok()) {
                              const QJsonObject answer = result.object();
                              m_mintedToken = str(answer, "access_token");
                              m_mintedTokenCopied = false;
                              m_mintAnswer = answer;
                              emit mintChanged();
                              emit minted(m_mintedToken);
                              m_reloadSoon.start(); // its event does it too, if it comes
                              return;
                          }
                          if (!result.canceled)
                              m_mintError = result.errorMessage;
                          emit mintChanged();
                      });
}

QString TokenListModel::mintedSummary() const
{
    if (m_mintAnswer.isEmpty())
        return {};
    const QString lifetime =
        ClientForm::durationText(m_mintAnswer.value(QLatin1String("expires_in")).toInteger(-1));
    QStringList parts{str(m_mintAnswer, "token_type")};
    if (!lifetime.isEmpty())
        parts.append(tr("expires in %1").arg(lifetime));
    if (const QString s = str(m_mintAnswer, "scope"); !s.isEmpty())
        parts.append(tr("scope %1").arg(s));
    return parts.join(QStringLiteral(" · "));
}

void TokenListModel::retranslate()
{
    LiveListModel::retranslate();
    emit mintChanged();
}

void TokenListModel::clearMinted()
{
    if (m_mintedToken.isEmpty() && m_mintAnswer.isEmpty() && m_mintError.isEmpty())
        return;
    m_mintedToken.clear();
    m_mintedTokenCopied = false;
    m_mintAnswer = {};
    m_mintError.clear();
    emit mintChanged();
}

void TokenListModel::copyMintedToken()
{
    if (m_mintedToken.isEmpty())
        return;
    copySecretToClipboard(m_mintedToken);
    m_mintedTokenCopied = true;
    emit mintChanged();
}

QVariant TokenListModel::value(const QJsonObject &row, int role) const
{
    const QString kind = str(row, "kind");
    switch (role) {
    case IdRole:
        return str(row, "id");
    case ShortIdRole:
        return str(row, "id").left(8); // what oauth.token.* events name
    case KindRole:
        return kind;
    case KindTextRole:
        return kind == QLatin1String("access")    ? tr("Access token")
               : kind == QLatin1String("refresh") ? tr("Refresh token")
                                                  : kind;
    case FormatRole:
        return str(row, "format");
    case ClientIdRole:
        return str(row, "clientId");
    case ClientNameRole:
        return m_clients ? m_clients->nameOf(str(row, "clientId")) : QString();
    case SubjectTextRole: {
        const QString username = str(row, "username");
        return username.isEmpty() ? str(row, "subject") : username;
    }
    case ScopeRole:
    case Qt::DisplayRole:
        return str(row, "scope");
    case AudienceRole:
        return str(row, "audience");
    case IssuedTextRole:
        return ConsoleFormat::time(row.value(QLatin1String("issuedAt")));
    case ExpiresTextRole:
        return ConsoleFormat::time(row.value(QLatin1String("expiresAt")));
    default:
        return {};
    }
}

ApiCall TokenListModel::listCall() const
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("limit"), QString::number(capacity()));
    return {"GET", QStringLiteral("/tokens"), query, {}};
}

bool TokenListModel::accepts(const QJsonObject &row) const
{
    const QDateTime expires = ConsoleFormat::parseTime(row.value(QLatin1String("expiresAt")));
    return !expires.isValid() || expires > QDateTime::currentDateTimeUtc();
}

void TokenListModel::applyEvent(const AdminEvent &event)
{
    const QString prefix = event.data.value(QLatin1String("tokenHashPrefix")).toString();
    if (event.type == QLatin1String("oauth.token.issued")) {
        for (const QJsonObject &row : rows())
            if (!prefix.isEmpty() && str(row, "id").startsWith(prefix))
                return; // already listed (a reload that saw it)
        m_reloadSoon.start();
    } else if (event.type == QLatin1String("oauth.token.revoked")) {
        dropRowsWithPrefix(prefix);
    }
}

void TokenListModel::dropExpired()
{
    for (int row = count() - 1; row >= 0; --row)
        if (!accepts(rows().at(row)))
            removeRowAt(row);
}

void TokenListModel::dropRowsWithPrefix(const QString &prefix)
{
    if (prefix.isEmpty())
        return;
    bool family = false;
    for (int row = count() - 1; row >= 0; --row) {
        if (str(rows().at(row), "id").startsWith(prefix)) {
            family = family || str(rows().at(row), "kind") == QLatin1String("refresh");
            removeRowAt(row);
        }
    }
    if (family)
        m_reloadSoon.start();
}

} // namespace Gatehouse::Console
