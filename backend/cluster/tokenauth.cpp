#include "cluster/tokenauth.h"
#include "cluster/clusterlogging.h"

#include "cluster/objectstore.h"
#include "cluster/selector.h"
#include "core/clock.h"
#include "crypto/jws.h"
#include "crypto/random.h"
#include "platform/platform.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QMutex>
#include <QSet>

namespace Gatehouse::Cluster {

namespace {

// Logs a user's dropped groups once per user and set of groups (a kubectl session makes
// many requests); at most 1,000 remembered, then it starts over.
void logDropped(const QString &user, const QStringList &groups)
{
    static QMutex mutex;
    static QSet<QString> seen;
    const QString key = user + QLatin1Char('\n') + groups.join(QLatin1Char(','));
    {
        QMutexLocker lock(&mutex);
        if (seen.contains(key))
            return;
        if (seen.size() >= 1000)
            seen.clear();
        seen.insert(key);
    }
    qCWarning(lcCluster).noquote()
        << "oidc: user" << user << "- groups dropped (a system: group reaches the cluster only "
        << "through an oidc-group-mappings entry):" << groups.join(QStringLiteral(", "));
}

constexpr qint64 kLeewaySeconds = 60;

bool looksLikeJwt(const QString &token)
{
    return token.count(QLatin1Char('.')) == 2;
}

QString unverifiedIssuer(const QString &token)
{
    const QByteArray payload = QByteArray::fromBase64(
        token.section(QLatin1Char('.'), 1, 1).toLatin1(), QByteArray::Base64UrlEncoding);
    return QJsonDocument::fromJson(payload).object().value(QLatin1String("iss")).toString();
}

bool audienceContains(const QJsonValue &aud, const QString &wanted)
{
    if (aud.isString())
        return aud.toString() == wanted;
    for (const QJsonValue a : aud.toArray())
        if (a.toString() == wanted)
            return true;
    return false;
}

// kube's claims validator: an object being deleted (a finalizer holds it) still backs its
// tokens for this long after its deletionTimestamp, then no more; a deletion asked for to take
// a service account's or a pod's access away is not undone by a finalizer.
constexpr qint64 kDeletionGraceSeconds = 60;

bool deletedLongAgo(const QJsonObject &object, qint64 now)
{
    const QString at = object.value(QLatin1String("metadata"))
                           .toObject()
                           .value(QLatin1String("deletionTimestamp"))
                           .toString();
    if (at.isEmpty())
        return false;
    const QDateTime t = QDateTime::fromString(at, Qt::ISODate);
    // Unreadable: taken as deleted long ago (the server writes it; nothing else may).
    return !t.isValid() || t.toSecsSinceEpoch() + kDeletionGraceSeconds <= now;
}

// exp, nbf and iat against now; empty when the times are fine.
QString timeProblem(const QJsonObject &claims, qint64 now)
{
    if (!claims.value(QLatin1String("exp")).isDouble())
        return QStringLiteral("the token has no exp");
    if (Core::jsonSeconds(claims.value(QLatin1String("exp"))) + kLeewaySeconds < now)
        return QStringLiteral("the token has expired");
    if (claims.contains(QLatin1String("nbf")) &&
        Core::jsonSeconds(claims.value(QLatin1String("nbf"))) - kLeewaySeconds > now)
        return QStringLiteral("the token is not valid yet");
    return {};
}

} // namespace

QStringList oidcClusterGroups(const QStringList &tokenGroups, const QString &prefix,
                              const QStringList &mappings, QStringList *dropped)
{
    QHash<QString, QString> mapped;
    for (const QString &m : mappings) {
        const qsizetype eq = m.indexOf(QLatin1Char('='));
        if (eq > 0)
            mapped.insert(m.left(eq), m.mid(eq + 1));
    }
    QStringList out;
    for (const QString &g : tokenGroups) {
        if (const auto it = mapped.constFind(g); it != mapped.constEnd()) {
            out.append(*it); // an administrator's explicit mapping
            continue;
        }
        const QString name = prefix + g;
        // Fail closed: system: groups are the cluster's own (system:masters is cluster-admin,
        // system:nodes the kubelets); a token's claim never grants one.
        if (name.startsWith(QLatin1String("system:"))) {
            if (dropped)
                dropped->append(g);
            continue;
        }
        out.append(name);
    }
    out.removeDuplicates();
    return out;
}

QString oidcUsernamePrefix(const OidcOptions &options)
{
    QString prefix = options.usernamePrefix;
    if (prefix.isEmpty() && options.usernameClaim != QLatin1String("email"))
        prefix = options.issuer + QLatin1Char('#');
    if (prefix == QLatin1String("-"))
        prefix.clear();
    return prefix;
}

TokenAuthenticator oidcAuthenticator(OidcOptions options, std::function<QJsonObject()> jwks,
                                     const Core::Clock &clock)
{
    return [options = std::move(options), jwks = std::move(jwks), &clock](
               const QString &token, const QStringList &audiences) -> std::optional<TokenVerdict> {
        if (!looksLikeJwt(token) || unverifiedIssuer(token) != options.issuer)
            return std::nullopt;
        // An OIDC token is for this API server (its client id), whatever else it names.
        if (!audiences.contains(QLatin1String(kApiAudience)))
            return QStringLiteral("oidc: the token is for this API server, not for the audiences "
                                  "asked");
        auto verified = Crypto::Jws::verifyWithJwks(token.toLatin1(), jwks());
        if (!verified)
            return QStringLiteral("oidc: the token's signature does not verify: ") +
                   verified.error().message;
        QJsonObject claims = QJsonDocument::fromJson(verified->payload).object();
        if (QString p = timeProblem(claims, clock.now().toSecsSinceEpoch()); !p.isEmpty())
            return QStringLiteral("oidc: ") + p;
        if (!audienceContains(claims.value(QLatin1String("aud")), options.clientId))
            return QStringLiteral("oidc: the token's audience does not include \"%1\"")
                .arg(options.clientId);
        if (options.vet)
            if (auto refused = options.vet(token, claims)) {
                if (const auto *unavailable = std::get_if<TokenUnavailable>(&*refused))
                    return TokenUnavailable{QStringLiteral("oidc: ") + unavailable->reason};
                return QStringLiteral("oidc: ") + std::get<QString>(*refused);
            }
        const QJsonValue name = claims.value(options.usernameClaim);
        if (!name.isString() || name.toString().isEmpty())
            return QStringLiteral("oidc: the token has no \"%1\" claim").arg(options.usernameClaim);
        if (options.usernameClaim == QLatin1String("email") &&
            claims.contains(QLatin1String("email_verified")) &&
            !claims.value(QLatin1String("email_verified")).toBool())
            return QStringLiteral("oidc: email not verified");
        UserInfo user;
        user.name = oidcUsernamePrefix(options) + name.toString();
        const QJsonValue groups = claims.value(options.groupsClaim);
        QStringList tokenGroups;
        if (groups.isString())
            tokenGroups.append(groups.toString());
        for (const QJsonValue g : groups.toArray())
            if (g.isString())
                tokenGroups.append(g.toString());
        user.groups = oidcClusterGroups(
            tokenGroups, options.groupsPrefix,
            options.groupMappings ? options.groupMappings() : QStringList(), &user.droppedGroups);
        if (!user.droppedGroups.isEmpty())
            logDropped(user.name, user.droppedGroups);
        // Nobody becomes a system user through a token from another issuer.
        if (user.name.startsWith(QLatin1String("system:")))
            return QStringLiteral("oidc: the user name \"%1\" is reserved").arg(user.name);
        user.audiences = {QString::fromLatin1(kApiAudience)};
        // What it asks for ends with it, as with a client certificate (authenticator.cpp): a
        // service account token it requests (TokenRequest) ends by the token's exp and carries
        // that end on, however many times it renews itself. The token itself ends with the
        // admin token, the client's credentials or the password it came from
        // (docs/admin-tokens.md); without this a 48-hour service account token asked for the
        // minute before outlived them all.
        user.credentialsUntilMs =
            qint64(Core::jsonSeconds(claims.value(QLatin1String("exp")))) * 1000;
        return user;
    };
}

ServiceAccountTokens::ServiceAccountTokens(Crypto::PrivateKey key, const ObjectStore &store,
                                           const Core::Clock &clock)
    : m_key(std::move(key)), m_store(store), m_clock(clock)
{
    // The kid is the key's thumbprint-like digest, as kube derives it from the public key.
    const QByteArray digest =
        QCryptographicHash::hash(m_key.publicKeyPem(), QCryptographicHash::Sha256);
    m_kid = QString::fromLatin1(
        digest.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    m_jwks = Crypto::Jws::jwks({Crypto::Jws::publicJwk(m_key, m_kid, QStringLiteral("ES256"))});
}

Result<Crypto::PrivateKey> ServiceAccountTokens::loadOrCreateKey(const QString &directory)
{
    const QString path = directory + QStringLiteral("/sa.key");
    if (QFile::exists(path)) {
        // Whoever wrote it signs service-account tokens the cluster believes: refused unless
        // this user or root owns it and nobody else may read it (fail closed).
        if (auto r = Platform::checkPrivateFile(path); !r)
            return makeError(QStringLiteral("sa-key"), r.error().message);
        return Crypto::PrivateKey::loadFile(path);
    }
    auto key = Crypto::PrivateKey::generate(Crypto::KeyType::EcP256);
    if (!key)
        return key.error();
    QDir().mkpath(directory);
    // Owner-only from its first byte (0600; an owner-only ACL on Windows).
    if (auto r = Platform::writePrivateFile(path, key->toPem()); !r)
        return makeError(QStringLiteral("sa-key"), r.error().message);
    return key;
}

QJsonObject ServiceAccountTokens::jwks() const
{
    return m_jwks;
}

Result<QJsonObject> ServiceAccountTokens::issue(const QString &namespaceName, const QString &name,
                                                const QString &uid, qint64 seconds,
                                                const QStringList &audiences,
                                                const QJsonObject &bound, qint64 notAfterMs) const
{
    const qint64 now = m_clock.now().toSecsSinceEpoch();
    const QStringList aud =
        audiences.isEmpty() ? QStringList{QString::fromLatin1(kIssuer)} : audiences;
    QJsonObject claims{
        {QStringLiteral("iss"), QString::fromLatin1(kIssuer)},
        {QStringLiteral("sub"),
         QStringLiteral("system:serviceaccount:%1:%2").arg(namespaceName, name)},
        {QStringLiteral("aud"), QJsonArray::fromStringList(aud)},
        {QStringLiteral("iat"), now},
        {QStringLiteral("nbf"), now},
        {QStringLiteral("exp"), now + seconds},
        {QStringLiteral("jti"), Crypto::Random::uuid()},
    };
    QJsonObject k8s = bound;
    k8s.insert(QStringLiteral("namespace"), namespaceName);
    k8s.insert(QStringLiteral("serviceaccount"),
               QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("uid"), uid}});
    claims.insert(QStringLiteral("kubernetes.io"), k8s);
    if (notAfterMs > 0)
        claims.insert(QLatin1String(kNotAfterClaim), notAfterMs / 1000);
    auto jws = Crypto::Jws::sign(m_key, QStringLiteral("ES256"),
                                 QJsonObject{{QStringLiteral("kid"), m_kid}},
                                 QJsonDocument(claims).toJson(QJsonDocument::Compact));
    if (!jws)
        return jws.error();
    return QJsonObject{
        {QStringLiteral("token"), QString::fromLatin1(*jws)},
        {QStringLiteral("expirationTimestamp"),
         QDateTime::fromSecsSinceEpoch(now + seconds, Qt::UTC).toString(Qt::ISODate)}};
}

TokenAuthenticator ServiceAccountTokens::authenticator() const
{
    return [this](const QString &token,
                  const QStringList &audiences) -> std::optional<TokenVerdict> {
        if (!looksLikeJwt(token) || unverifiedIssuer(token) != QLatin1String(kIssuer))
            return std::nullopt;
        auto verified = Crypto::Jws::verifyWithJwks(token.toLatin1(), m_jwks);
        if (!verified)
            return QStringLiteral("service account token: the signature does not verify");
        const QJsonObject claims = QJsonDocument::fromJson(verified->payload).object();
        if (QString p = timeProblem(claims, m_clock.now().toSecsSinceEpoch()); !p.isEmpty())
            return QStringLiteral("service account token: ") + p;
        // The audiences asked (this API server's for a request; a TokenReview's own) that the
        // token is for: none, and it is refused.
        QStringList accepted;
        for (const QString &a : audiences)
            if (audienceContains(claims.value(QLatin1String("aud")), a))
                accepted.append(a);
        if (accepted.isEmpty())
            return audiences == QStringList{QString::fromLatin1(kApiAudience)}
                       ? QStringLiteral("service account token: the audience is not this API "
                                        "server")
                       : QStringLiteral("service account token: the token is not for the "
                                        "audiences asked (%1)")
                             .arg(audiences.join(QStringLiteral(", ")));
        const QJsonObject k8s = claims.value(QLatin1String("kubernetes.io")).toObject();
        const QString ns = k8s.value(QLatin1String("namespace")).toString();
        const QJsonObject sa = k8s.value(QLatin1String("serviceaccount")).toObject();
        const QString name = sa.value(QLatin1String("name")).toString();
        const std::optional<QJsonObject> account =
            m_store.get(QStringLiteral("serviceaccounts"), ns, name);
        const qint64 now = m_clock.now().toSecsSinceEpoch();
        if (!account ||
            fieldValue(*account, QStringLiteral("metadata.uid")) !=
                sa.value(QLatin1String("uid")).toString() ||
            deletedLongAgo(*account, now))
            return QStringLiteral("service account token: the service account %1/%2 no longer "
                                  "exists")
                .arg(ns, name);
        // A bound token lives only as long as its object: the pod (its node is only
        // information), or the node for a node-bound token (kube's claims validator).
        const auto boundGone = [this, now](const QJsonObject &ref, const QString &resource,
                                           const QString &ns) {
            const auto o = m_store.get(resource, ns, ref.value(QLatin1String("name")).toString());
            return !o ||
                   fieldValue(*o, QStringLiteral("metadata.uid")) !=
                       ref.value(QLatin1String("uid")).toString() ||
                   deletedLongAgo(*o, now);
        };
        if (k8s.contains(QLatin1String("pod"))) {
            const QJsonObject pod = k8s.value(QLatin1String("pod")).toObject();
            if (boundGone(pod, QStringLiteral("pods"), ns))
                return QStringLiteral("service account token: the pod %1/%2 it is bound to no "
                                      "longer exists")
                    .arg(ns, pod.value(QLatin1String("name")).toString());
        } else if (k8s.contains(QLatin1String("node"))) {
            const QJsonObject node = k8s.value(QLatin1String("node")).toObject();
            if (boundGone(node, QStringLiteral("nodes"), QString()))
                return QStringLiteral("service account token: the node %1 it is bound to no "
                                      "longer exists")
                    .arg(node.value(QLatin1String("name")).toString());
        }
        UserInfo user;
        user.name = QStringLiteral("system:serviceaccount:%1:%2").arg(ns, name);
        user.uid = sa.value(QLatin1String("uid")).toString();
        user.groups = {QStringLiteral("system:serviceaccounts"),
                       QStringLiteral("system:serviceaccounts:") + ns};
        user.audiences = accepted;
        // Issued under a bound (an admin token that ends, a certificate): so is what it asks.
        if (const qint64 notAfter = claims.value(QLatin1String(kNotAfterClaim)).toInteger();
            notAfter > 0)
            user.credentialsUntilMs = notAfter * 1000;
        return user;
    };
}

} // namespace Gatehouse::Cluster
