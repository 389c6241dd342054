#include "tokenpreview.h"
#include "fields.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Gatehouse::Console {

namespace {
const QStringList &previewableGrants()
{
    static const QStringList grants{
        QStringLiteral("client_credentials"),
        QStringLiteral("authorization_code"),
        QStringLiteral("password"),
        QStringLiteral("refresh_token"),
        QStringLiteral("urn:ietf:params:oauth:grant-type:device_code"),
        QStringLiteral("urn:ietf:params:oauth:grant-type:token-exchange")};
    return grants;
}
} // namespace

TokenPreview::TokenPreview(AdminClient *client, QObject *parent) : QObject(parent), m_client(client)
{}

void TokenPreview::setClientId(const QString &id)
{
    if (m_clientId == id)
        return;
    m_clientId = id;
    inputEdited();
}

void TokenPreview::setClientName(const QString &name)
{
    if (m_clientName == name)
        return;
    m_clientName = name;
    emit inputChanged();
}

void TokenPreview::setGrantType(const QString &grant)
{
    if (m_grantType == grant)
        return;
    m_grantType = grant;
    inputEdited();
}

void TokenPreview::setScope(const QString &scope)
{
    if (m_scope == scope)
        return;
    m_scope = scope;
    inputEdited();
}

void TokenPreview::setResource(const QString &resource)
{
    if (m_resource == resource)
        return;
    m_resource = resource;
    inputEdited();
}

void TokenPreview::setAudience(const QString &audience)
{
    if (m_audience == audience)
        return;
    m_audience = audience;
    inputEdited();
}

void TokenPreview::setUsername(const QString &username)
{
    if (m_username == username)
        return;
    m_username = username;
    inputEdited();
}

bool TokenPreview::isUserGrant(const QString &grant)
{
    return grant == QLatin1String("authorization_code") || grant == QLatin1String("password") ||
           grant == QLatin1String("refresh_token") || grant.endsWith(QLatin1String(":device_code"));
}

bool TokenPreview::userGrant() const
{
    return isUserGrant(m_grantType);
}

QVariantList TokenPreview::grantOptions() const
{
    QVariantList options;
    for (const QString &grant : previewableGrants()) {
        if (!m_clientGrants.isEmpty() && !m_clientGrants.contains(grant))
            continue;
        QString text = grant;
        if (grant.startsWith(QLatin1String("urn:ietf:params:oauth:grant-type:")))
            text = grant.mid(33);
        options.append(QVariantMap{{"value", grant}, {"text", text}});
    }
    return options;
}

QString TokenPreview::format() const
{
    return str(m_result, "format");
}

QString TokenPreview::note() const
{
    return str(m_result, "note");
}

QString TokenPreview::alsoIssuedText() const
{
    QStringList also;
    for (const QJsonValue v : m_result.value(QLatin1String("alsoIssued")).toArray())
        if (v.isString())
            also.append(v.toString());
    return also.join(QStringLiteral(", "));
}

QString TokenPreview::sourceText(const QString &source)
{
    if (source == QLatin1String("server"))
        return tr("this server");
    if (source == QLatin1String("clientRecord"))
        return tr("client record");
    if (source == QLatin1String("request"))
        return tr("the request");
    if (source == QLatin1String("requestedScope"))
        return tr("requested scope");
    if (source == QLatin1String("userAttribute"))
        return tr("user attribute");
    if (source == QLatin1String("group"))
        return tr("group");
    if (source == QLatin1String("subjectToken"))
        return tr("subject token");
    if (source == QLatin1String("actorToken"))
        return tr("actor token");
    if (source == QLatin1String("exchangePolicy"))
        return tr("exchange policy");
    if (source == QLatin1String("time"))
        return tr("time");
    if (source == QLatin1String("random"))
        return tr("random");
    return source;
}

void TokenPreview::startFor(const QString &clientId, const QString &clientName,
                            const QStringList &grantTypes)
{
    m_clientId = clientId;
    m_clientName = clientName;
    m_clientGrants = grantTypes;
    m_grantType = QStringLiteral("client_credentials");
    const QVariantList options = grantOptions();
    if (!options.isEmpty())
        m_grantType = options.constFirst().toMap().value("value").toString();
    m_scope.clear();
    m_resource.clear();
    m_audience.clear();
    m_username.clear();
    clear();
    emit inputChanged();
}

QJsonObject TokenPreview::requestBody() const
{
    QJsonObject body{{"client_id", m_clientId}, {"grant_type", m_grantType}};
    const std::pair<const char *, const QString *> optional[] = {
        {"scope", &m_scope}, {"resource", &m_resource}, {"audience", &m_audience}};
    for (const auto &[key, value] : optional)
        if (!value->trimmed().isEmpty())
            body.insert(QLatin1String(key), value->trimmed());
    if (userGrant() && !m_username.trimmed().isEmpty())
        body.insert(QStringLiteral("username"), m_username.trimmed());
    return body;
}

void TokenPreview::preview()
{
    if (!m_client || m_clientId.isEmpty())
        return;
    const quint64 generation = ++m_generation;
    setBusy(true);
    m_client->callApi({"POST", QStringLiteral("/tokens/preview"), {}, requestBody()}, this,
                      [this, generation](const ApiResult &result) {
                          if (generation != m_generation)
                              return;
                          setBusy(false);
                          if (result.canceled)
                              return;
                          if (!result.ok()) {
                              m_result = {};
                              m_claims.clear();
                              m_differences.clear();
                              m_error = result.errorMessage;
                              emit resultChanged();
                              return;
                          }
                          apply(result.object());
                      });
}

void TokenPreview::compare(const QVariantMap &payload)
{
    const QJsonObject p = QJsonObject::fromVariantMap(payload);
    const QString clientId = str(p, "client_id").isEmpty() ? str(p, "azp") : str(p, "client_id");
    const QString sub = str(p, "sub");
    m_clientId = clientId;
    m_clientGrants.clear();
    if (sub.isEmpty() || sub == clientId) {
        m_grantType = QStringLiteral("client_credentials");
        m_username.clear();
    } else {
        m_grantType = QStringLiteral("authorization_code");
        m_username = str(p, "preferred_username").isEmpty() ? sub : str(p, "preferred_username");
    }
    m_scope = str(p, "scope");
    const QJsonValue aud = p.value(QLatin1String("aud"));
    m_resource = aud.isString() && aud.toString() != clientId ? aud.toString() : QString();
    m_audience.clear();
    m_clientName.clear();
    ++m_generation;
    m_result = {};
    m_claims.clear();
    m_differences.clear();
    m_error.clear();
    m_compareTo = p.isEmpty() ? QJsonObject{{"", ""}} : p;
    emit inputChanged();
    emit resultChanged();
    if (clientId.isEmpty()) {
        m_error = tr("The token names no client (client_id or azp).");
        emit resultChanged();
        return;
    }
    preview();
}

void TokenPreview::clear()
{
    ++m_generation;
    setBusy(false);
    m_result = {};
    m_claims.clear();
    m_differences.clear();
    m_compareTo = {};
    m_error.clear();
    emit resultChanged();
}

void TokenPreview::apply(const QJsonObject &answer)
{
    m_result = answer;
    m_error.clear();
    m_claims.clear();
    const QJsonObject claims = answer.value(QLatin1String("claims")).toObject();
    const QJsonObject sources = answer.value(QLatin1String("sources")).toObject();
    for (auto it = claims.begin(); it != claims.end(); ++it) {
        const QJsonObject source = sources.value(it.key()).toObject();
        m_claims.append(QVariantMap{{"claim", it.key()},
                                    {"value", jsonValueText(it.value())},
                                    {"source", str(source, "source")},
                                    {"sourceText", sourceText(str(source, "source"))},
                                    {"detail", str(source, "detail")}});
    }
    m_differences.clear();
    if (!m_compareTo.isEmpty()) {
        static const QStringList always{"iat", "exp", "jti", "nbf", "auth_time"};
        QStringList names = claims.keys();
        for (const QString &key : m_compareTo.keys())
            if (!names.contains(key))
                names.append(key);
        names.sort();
        for (const QString &name : std::as_const(names)) {
            if (always.contains(name) || claims.value(name) == m_compareTo.value(name))
                continue;
            m_differences.append(QVariantMap{{"claim", name},
                                             {"token", jsonValueText(m_compareTo.value(name))},
                                             {"now", jsonValueText(claims.value(name))}});
        }
    }
    emit resultChanged();
}

void TokenPreview::inputEdited()
{
    ++m_generation;
    m_result = {};
    m_claims.clear();
    m_differences.clear();
    m_compareTo = {};
    m_error.clear();
    setBusy(false);
    emit inputChanged();
    emit resultChanged();
}

void TokenPreview::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged();
}

void TokenPreview::retranslate()
{
    if (!m_result.isEmpty())
        apply(m_result);
}

} // namespace Gatehouse::Console
