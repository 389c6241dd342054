#include "jwtinspector.h"

#include "orderstatus.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace Gatehouse::Console {

namespace {

constexpr int PauseMs = 400; // after the last keystroke, before decoding

QString span(qint64 seconds)
{
    seconds = std::abs(seconds);
    if (seconds < 120)
        return JwtInspector::tr("%1 s").arg(seconds);
    if (seconds < 2 * 3600)
        return JwtInspector::tr("%1 min").arg(seconds / 60);
    if (seconds < 2 * 86400)
        return JwtInspector::tr("%1 h").arg(seconds / 3600);
    return JwtInspector::tr("%1 days").arg(seconds / 86400);
}

QString pretty(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented))
            .trimmed();
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented))
            .trimmed();
    return value.toVariant().toString();
}

} // namespace

JwtInspector::JwtInspector(AdminClient *client, QObject *parent) : QObject(parent), m_client(client)
{
    m_pause.setSingleShot(true);
    m_pause.setInterval(PauseMs);
    connect(&m_pause, &QTimer::timeout, this, &JwtInspector::inspect);
    m_clock.setInterval(std::chrono::seconds(1));
    connect(&m_clock, &QTimer::timeout, this, &JwtInspector::clockChanged);
}

QString JwtInspector::countdown(qint64 exp, qint64 now)
{
    const qint64 left = exp - now;
    if (left <= 0)
        return tr("expired %1 ago").arg(span(-left));
    const qint64 h = left / 3600;
    const QString mm = QStringLiteral("%1").arg((left % 3600) / 60, 2, 10, QLatin1Char('0'));
    const QString ss = QStringLiteral("%1").arg(left % 60, 2, 10, QLatin1Char('0'));
    if (left < 3600)
        return tr("expires in %1:%2").arg((left % 3600) / 60).arg(ss);
    if (left < 86400)
        return tr("expires in %1:%2:%3").arg(h).arg(mm, ss);
    return tr("expires in %1 d %2 h").arg(left / 86400).arg(h % 24);
}

QString JwtInspector::relative(qint64 at, qint64 now)
{
    const qint64 d = at - now;
    if (std::abs(d) < 2)
        return tr("now");
    return d > 0 ? tr("in %1").arg(span(d)) : tr("%1 ago").arg(span(d));
}

void JwtInspector::setToken(const QString &token)
{
    if (m_token == token)
        return;
    m_token = token;
    inputEdited();
}

void JwtInspector::setKey(const QString &key)
{
    if (m_key == key)
        return;
    m_key = key;
    inputEdited();
}

void JwtInspector::setAudience(const QString &audience)
{
    if (m_audience == audience)
        return;
    m_audience = audience;
    inputEdited();
}

void JwtInspector::setIssuer(const QString &issuer)
{
    if (m_issuer == issuer)
        return;
    m_issuer = issuer;
    inputEdited();
}

void JwtInspector::inputEdited()
{
    m_revokeError.clear();
    emit inputChanged();
    if (m_token.trimmed().isEmpty()) {
        m_pause.stop();
        ++m_generation; // an answer under way is for a token that is gone
        setBusy(false);
        setResult({}, {});
        return;
    }
    m_pause.start();
}

QString JwtInspector::keyKind() const
{
    const QString key = m_key.trimmed();
    if (key.isEmpty())
        return {};
    if (key.startsWith(QLatin1Char('{')))
        return QJsonDocument::fromJson(key.toUtf8()).isObject() ? QStringLiteral("jwks")
                                                                : QStringLiteral("invalid");
    if (key.contains(QLatin1String("-----BEGIN ")))
        return QStringLiteral("pem");
    return QStringLiteral("invalid");
}

QString JwtInspector::keyError() const
{
    if (keyKind() != QLatin1String("invalid"))
        return {};
    const QString key = m_key.trimmed();
    if (key.startsWith(QLatin1Char('{'))) {
        QJsonParseError error{};
        QJsonDocument::fromJson(key.toUtf8(), &error);
        return tr("Not a JSON object: %1.").arg(error.errorString());
    }
    return tr("Paste a JWK Set or one JWK (JSON), or a PEM public key or certificate.");
}

QJsonObject JwtInspector::requestBody() const
{
    QJsonObject body{{QStringLiteral("token"), m_token.trimmed()}};
    const QString kind = keyKind();
    if (kind == QLatin1String("jwks"))
        body.insert(QStringLiteral("jwks"),
                    QJsonDocument::fromJson(m_key.trimmed().toUtf8()).object());
    else if (kind == QLatin1String("pem"))
        body.insert(QStringLiteral("pem"), m_key.trimmed());
    if (const QString audience = m_audience.trimmed(); !audience.isEmpty())
        body.insert(QStringLiteral("audience"), audience);
    if (const QString issuer = m_issuer.trimmed(); !issuer.isEmpty())
        body.insert(QStringLiteral("issuer"), issuer);
    return body;
}

void JwtInspector::inspect()
{
    m_pause.stop();
    if (m_token.trimmed().isEmpty() || keyKind() == QLatin1String("invalid") || !m_client) {
        ++m_generation;
        setBusy(false);
        setResult({}, {}); // keyError() says what is wrong with the key
        return;
    }
    const quint64 generation = ++m_generation;
    setBusy(true);
    m_client->callApi({"POST", QStringLiteral("/jwt/inspect"), {}, requestBody()}, this,
                      [this, generation](const ApiResult &result) {
                          if (generation != m_generation)
                              return; // the input changed since
                          setBusy(false);
                          if (result.canceled)
                              return;
                          if (result.ok())
                              setResult(result.object(), {});
                          else
                              setResult({}, result.errorMessage);
                      });
}

void JwtInspector::inspectToken(const QString &token)
{
    if (m_token != token) {
        m_token = token;
        emit inputChanged();
    }
    inspect();
}

void JwtInspector::clear()
{
    m_token.clear();
    m_key.clear();
    m_audience.clear();
    m_issuer.clear();
    inputEdited();
}

void JwtInspector::setResult(const QJsonObject &result, const QString &error)
{
    if (m_result == result && m_error == error)
        return;
    m_result = result;
    m_error = error;
    emit resultChanged();
    emit clockChanged();
    if (timeClaims().isEmpty())
        m_clock.stop();
    else if (!m_clock.isActive())
        m_clock.start();
}

void JwtInspector::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged();
}

bool JwtInspector::decoded() const
{
    return m_result.value(QLatin1String("header")).isObject();
}

bool JwtInspector::valid() const
{
    return m_result.value(QLatin1String("valid")).toBool();
}

QString JwtInspector::verdict() const
{
    return m_result.value(QLatin1String("verdict")).toString();
}

QString JwtInspector::keySourceText() const
{
    QString source = m_result.value(QLatin1String("keySource")).toString();
    if (source == QLatin1String("server-jwks"))
        return tr("this server's JWKS");
    if (source == QLatin1String("pasted-jwks"))
        return tr("the pasted JWKS");
    if (source == QLatin1String("pasted-pem"))
        return tr("the pasted PEM key");
    return source;
}

QString JwtInspector::headerText() const
{
    return decoded() ? pretty(m_result.value(QLatin1String("header"))) : QString();
}

QString JwtInspector::payloadText() const
{
    return decoded() ? pretty(m_result.value(QLatin1String("payload"))) : QString();
}

QVariantMap JwtInspector::payload() const
{
    return m_result.value(QLatin1String("payload")).toObject().toVariantMap();
}

QStringList JwtInspector::warnings() const
{
    QStringList out;
    for (const QJsonValue w : m_result.value(QLatin1String("warnings")).toArray())
        if (w.isString())
            out.append(w.toString());
    return out;
}

namespace {
QJsonObject serverPart(const QJsonObject &result, const char *key = nullptr)
{
    const QJsonObject server = result.value(QLatin1String("server")).toObject();
    return key ? server.value(QLatin1String(key)).toObject() : server;
}
} // namespace

bool JwtInspector::hasServer() const
{
    return !serverPart(m_result).isEmpty();
}

bool JwtInspector::issuedHere() const
{
    return serverPart(m_result).value(QLatin1String("issuedHere")).toBool();
}

QString JwtInspector::keyState() const
{
    const QJsonObject key = serverPart(m_result, "key");
    if (key.isEmpty())
        return {};
    return key.value(QLatin1String("known")).toBool() ? key.value(QLatin1String("state")).toString()
                                                      : QStringLiteral("unknown");
}

QString JwtInspector::keyText() const
{
    const QJsonObject key = serverPart(m_result, "key");
    const QString kid = key.value(QLatin1String("kid")).toString();
    const QString state = keyState();
    QString text;
    if (state == QLatin1String("active"))
        text = tr("%1: the active signing key");
    else if (state == QLatin1String("next"))
        text = tr("%1: the next key (it signs nothing yet)");
    else if (state == QLatin1String("retired"))
        text = tr("%1: a retired key, published until its tokens expire");
    else if (state == QLatin1String("unknown"))
        text = tr("%1: not a key of this server");
    else
        return {};
    return text.arg(kid.isEmpty() ? tr("no kid") : kid);
}

QString JwtInspector::storedState() const
{
    return serverPart(m_result, "stored").value(QLatin1String("state")).toString();
}

QString JwtInspector::storedText() const
{
    const QJsonObject stored = serverPart(m_result, "stored");
    const QString state = storedState();
    if (state == QLatin1String("active"))
        return tr("Stored and active (expires %1)")
            .arg(ConsoleFormat::time(stored.value(QLatin1String("expiresAt"))));
    if (state == QLatin1String("revoked"))
        return tr("Revoked %1").arg(ConsoleFormat::time(stored.value(QLatin1String("revokedAt"))));
    if (state == QLatin1String("expired"))
        return tr("Stored, expired");
    if (state == QLatin1String("notStored"))
        return tr("Not stored: %1").arg(stored.value(QLatin1String("detail")).toString());
    return {};
}

bool JwtInspector::revocable() const
{
    const QJsonObject stored = serverPart(m_result, "stored");
    return stored.value(QLatin1String("revocable")).toBool() &&
           !stored.value(QLatin1String("id")).toString().isEmpty();
}

QString JwtInspector::clientText() const
{
    const QJsonObject client = serverPart(m_result, "client");
    const QString id = client.value(QLatin1String("clientId")).toString();
    if (id.isEmpty())
        return {};
    if (!client.value(QLatin1String("exists")).toBool())
        return tr("Client %1 no longer exists").arg(id);
    const QString name = client.value(QLatin1String("clientName")).toString();
    return name.isEmpty() ? tr("Client %1 exists").arg(id)
                          : tr("Client %1 (%2) exists").arg(name, id);
}

bool JwtInspector::clientExists() const
{
    return serverPart(m_result, "client").value(QLatin1String("exists")).toBool();
}

QString JwtInspector::userText() const
{
    const QJsonObject user = serverPart(m_result, "user");
    const QString id = user.value(QLatin1String("id")).toString();
    if (id.isEmpty())
        return {};
    if (!user.value(QLatin1String("exists")).toBool())
        return tr("User %1 no longer exists").arg(id);
    const QString name = user.value(QLatin1String("username")).toString();
    return name.isEmpty() ? tr("User %1 exists").arg(id) : tr("User %1 (%2) exists").arg(name, id);
}

bool JwtInspector::userExists() const
{
    return serverPart(m_result, "user").value(QLatin1String("exists")).toBool();
}

void JwtInspector::revoke()
{
    const QString id = serverPart(m_result, "stored").value(QLatin1String("id")).toString();
    if (!m_client || id.isEmpty() || m_busy)
        return;
    setBusy(true);
    m_client->callApi({"DELETE", QStringLiteral("/tokens/%1").arg(id), {}, {}}, this,
                      [this](const ApiResult &result) {
                          setBusy(false);
                          if (result.canceled)
                              return;
                          m_revokeError = result.ok() ? QString() : result.errorMessage;
                          emit resultChanged();
                          emit revoked();
                          inspect(); // the stored state is "revoked" now
                      });
}

QVariantList JwtInspector::checks() const
{
    QVariantList out;
    for (const auto &value : m_result.value(QLatin1String("checks")).toArray()) {
        const QJsonObject check = value.toObject();
        const QString status = check.value(QLatin1String("status")).toString();
        const QString text = status == QLatin1String("pass")   ? tr("passed")
                             : status == QLatin1String("fail") ? tr("failed")
                             : status == QLatin1String("skip") ? tr("skipped")
                                                               : status;
        out.append(QVariantMap{{QStringLiteral("name"), check.value(QLatin1String("name"))},
                               {QStringLiteral("status"), status},
                               {QStringLiteral("statusText"), text},
                               {QStringLiteral("detail"), check.value(QLatin1String("detail"))}});
    }
    return out;
}

qint64 JwtInspector::claim(const char *name, bool *present) const
{
    const QJsonValue value =
        m_result.value(QLatin1String("payload")).toObject().value(QLatin1String(name));
    *present = value.isDouble();
    // Clamped before the cast (a double beyond qint64 cast to it is undefined): a pasted token's
    // exp of 1e300 is shown as far in the future, not as whatever the cast made of it.
    return *present ? qint64(std::clamp(value.toDouble(), -1e13, 1e13)) : 0;
}

QVariantList JwtInspector::timeClaims() const
{
    static const struct
    {
        const char *name;
        const char *label;
    } claims[] = {
        {"exp", QT_TR_NOOP("Expires")},
        {"nbf", QT_TR_NOOP("Not before")},
        {"iat", QT_TR_NOOP("Issued")},
        {"auth_time", QT_TR_NOOP("Signed in")},
    };
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    QVariantList out;
    for (const auto &c : claims) {
        bool present = false;
        const qint64 at = claim(c.name, &present);
        if (!present)
            continue;
        out.append(QVariantMap{
            {QStringLiteral("claim"), QLatin1String(c.name)},
            {QStringLiteral("label"), tr(c.label)},
            {QStringLiteral("localText"), QDateTime::fromSecsSinceEpoch(at).toLocalTime().toString(
                                              QStringLiteral("yyyy-MM-dd HH:mm:ss t"))},
            {QStringLiteral("relativeText"), relative(at, now)},
        });
    }
    return out;
}

bool JwtInspector::hasExpiry() const
{
    bool present = false;
    claim("exp", &present);
    return present;
}

bool JwtInspector::expired() const
{
    bool present = false;
    const qint64 exp = claim("exp", &present);
    return present && exp <= QDateTime::currentSecsSinceEpoch();
}

QString JwtInspector::countdownText() const
{
    bool present = false;
    const qint64 exp = claim("exp", &present);
    return present ? countdown(exp, QDateTime::currentSecsSinceEpoch()) : QString();
}

void JwtInspector::retranslate()
{
    emit inputChanged(); // keyError(); the decoder only shows the input again
    emit resultChanged();
    emit clockChanged();
}

} // namespace Gatehouse::Console
