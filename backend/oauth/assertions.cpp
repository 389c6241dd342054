#include "oauth/assertions.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/writequeue.h"
#include "crypto/jws.h"
#include "oauth/oauthlogging.h"
#include "oauth/oauthstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QUrl>

#include <algorithm>

namespace Gatehouse::OAuth {

namespace {

constexpr qint64 kLeewayS = 60;

Core::Error refused(const QString &message)
{
    return Core::Error{QStringLiteral("invalid_assertion"), message, 400};
}

} // namespace

QJsonObject TrustedIssuer::toJson() const
{
    return QJsonObject{{QStringLiteral("issuer"), issuer},
                       {QStringLiteral("jwks"), jwks},
                       {QStringLiteral("scopes"), QJsonArray::fromStringList(scopes)},
                       {QStringLiteral("subjects"), QJsonArray::fromStringList(subjects)},
                       {QStringLiteral("anySubject"), anySubject},
                       {QStringLiteral("createdAt"), Core::isoTimeMs(createdAt)},
                       {QStringLiteral("expiresAt"), expiresAt > 0
                                                         ? QJsonValue(Core::isoTimeMs(expiresAt))
                                                         : QJsonValue(QJsonValue::Null)}};
}

bool TrustedIssuer::mayAssert(const QStringList &names) const
{
    return anySubject || std::any_of(names.cbegin(), names.cend(), [this](const QString &n) {
               return !n.isEmpty() && subjects.contains(n);
           });
}

bool TrustedIssuer::subjectsNarrowedBy(const TrustedIssuer &after) const
{
    if (after.anySubject)
        return false;
    return anySubject || std::any_of(subjects.cbegin(), subjects.cend(),
                                     [&](const QString &s) { return !after.subjects.contains(s); });
}

Core::Result<TrustedIssuer> TrustedIssuer::fromJson(const QJsonObject &o)
{
    TrustedIssuer t;
    t.issuer = o.value(QStringLiteral("issuer")).toString();
    const QUrl u(t.issuer, QUrl::StrictMode);
    if (t.issuer.isEmpty() || !u.isValid() || u.isRelative() || t.issuer.size() > 2048)
        return Core::Error{QStringLiteral("validation-failed"),
                           QStringLiteral("issuer: an absolute URI is required"), 400};
    const QJsonValue jwks = o.value(QStringLiteral("jwks"));
    const QJsonArray keys = jwks.toObject().value(QStringLiteral("keys")).toArray();
    if (!jwks.isObject() || keys.isEmpty())
        return Core::Error{QStringLiteral("validation-failed"),
                           QStringLiteral("jwks: a JWK Set {\"keys\": [...]} with at least one "
                                          "public key is required"),
                           400};
    for (qsizetype i = 0; i < keys.size(); ++i)
        if (const auto problem = Crypto::Jws::registeredKeyProblem(keys.at(i).toObject()))
            return Core::Error{QStringLiteral("validation-failed"),
                               QStringLiteral("jwks: key %1: %2").arg(i + 1).arg(*problem), 400};
    t.jwks = jwks.toObject();
    const QJsonValue scopes = o.value(QStringLiteral("scopes"));
    t.scopesGiven = !scopes.isUndefined();
    if (t.scopesGiven && !scopes.isArray())
        return Core::Error{QStringLiteral("validation-failed"),
                           QStringLiteral("scopes: an array of scope names is required"), 400};
    for (const QJsonValue s : scopes.toArray()) {
        const QString v = s.toString();
        if (!s.isString() || v.isEmpty() || v.size() > 200 || v.contains(QLatin1Char(' ')))
            return Core::Error{QStringLiteral("validation-failed"),
                               QStringLiteral("scopes: each a scope name without spaces"), 400};
        t.scopes.append(v);
    }
    t.scopes.removeDuplicates();
    const QJsonValue subjects = o.value(QStringLiteral("subjects"));
    const QJsonValue any = o.value(QStringLiteral("anySubject"));
    t.subjectsGiven = !subjects.isUndefined() || !any.isUndefined();
    if (!any.isUndefined() && !any.isBool())
        return Core::Error{QStringLiteral("validation-failed"),
                           QStringLiteral("anySubject: true or false"), 400};
    t.anySubject = any.toBool();
    if (!subjects.isUndefined() && !subjects.isArray())
        return Core::Error{QStringLiteral("validation-failed"),
                           QStringLiteral("subjects: an array of subjects (a `sub`, or a local "
                                          "user's id or username) is required"),
                           400};
    const QJsonArray subjectList = subjects.toArray();
    if (subjectList.size() > 1000)
        return Core::Error{QStringLiteral("validation-failed"),
                           QStringLiteral("subjects: at most 1000 (anySubject: true for more)"),
                           400};
    for (const QJsonValue s : subjectList) {
        const QString v = s.toString();
        if (!s.isString() || v.isEmpty() || v.size() > 255 ||
            std::any_of(v.cbegin(), v.cend(),
                        [](QChar c) { return c.category() == QChar::Other_Control; }))
            return Core::Error{QStringLiteral("validation-failed"),
                               QStringLiteral("subjects: each a non-empty string of at most 255 "
                                              "characters, without control characters"),
                               400};
        t.subjects.append(v);
    }
    t.subjects.removeDuplicates();
    if (t.anySubject && !t.subjects.isEmpty())
        return Core::Error{QStringLiteral("validation-failed"),
                           QStringLiteral("subjects or anySubject: true, not both"), 400};
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it.key() != QLatin1String("issuer") && it.key() != QLatin1String("jwks") &&
            it.key() != QLatin1String("scopes") && it.key() != QLatin1String("subjects") &&
            it.key() != QLatin1String("anySubject"))
            return Core::Error{QStringLiteral("validation-failed"),
                               QStringLiteral("unknown field '%1' (issuer, jwks, scopes, "
                                              "subjects, anySubject)")
                                   .arg(it.key().left(64)),
                               400};
    return t;
}

TrustedIssuers::TrustedIssuers(Core::Database &database, Core::WriteQueue &writer,
                               const Core::Clock &clock)
    : m_database(database), m_writer(writer), m_clock(clock)
{}

namespace {

constexpr auto kIssuerColumns =
    "issuer, jwks, created_at, scopes, subjects, any_subject, expires_at";

QStringList subjectsFromText(const QString &text)
{
    QStringList out;
    for (const QJsonValue v : QJsonDocument::fromJson(text.toUtf8()).array())
        out.append(v.toString());
    return out;
}

QString subjectsText(const QStringList &subjects)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonArray::fromStringList(subjects)).toJson(QJsonDocument::Compact));
}

TrustedIssuer issuerFromRow(const QSqlQuery &q)
{
    TrustedIssuer t;
    t.issuer = q.value(0).toString();
    t.jwks = QJsonDocument::fromJson(q.value(1).toByteArray()).object();
    t.createdAt = q.value(2).toLongLong();
    t.scopes = q.value(3).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    t.subjects = subjectsFromText(q.value(4).toString());
    t.anySubject = q.value(5).toInt() != 0;
    t.expiresAt = q.value(6).toLongLong();
    return t;
}

} // namespace

std::optional<TrustedIssuer> TrustedIssuers::find(const QString &issuer, qint64 now) const
{
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral("SELECT %1 FROM oauth_trusted_issuers WHERE issuer = ?")
                  .arg(QLatin1String(kIssuerColumns)));
    q.addBindValue(issuer);
    if (!q.exec() || !q.next())
        return std::nullopt;
    TrustedIssuer t = issuerFromRow(q);
    if (now > 0 && t.ended(now))
        return std::nullopt;
    return t;
}

QList<TrustedIssuer> TrustedIssuers::all() const
{
    QList<TrustedIssuer> out;
    QSqlQuery q(m_database.connection());
    if (q.exec(QStringLiteral("SELECT %1 FROM oauth_trusted_issuers ORDER BY issuer")
                   .arg(QLatin1String(kIssuerColumns))))
        while (q.next())
            out.append(issuerFromRow(q));
    return out;
}

void TrustedIssuers::add(const TrustedIssuer &issuer, std::function<void(Core::Result<void>)> done)
{
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    m_writer.submit(
        [issuer, now](Core::WriteTransaction &tx) -> Core::Result<void> {
            // Adding an existing issuer replaces its keys (key rotation on their side), and its
            // scopes and subjects when they are given.
            std::optional<TrustedIssuer> before;
            if (issuer.scopesGiven || issuer.subjectsGiven) {
                // Locked on PostgreSQL: another instance's change waits, so that neither reads
                // what the other is replacing (a narrowing would go unnoticed).
                QSqlQuery &read = tx.query(
                    QStringLiteral("SELECT %1 FROM oauth_trusted_issuers WHERE issuer = ?%2")
                        .arg(QLatin1String(kIssuerColumns),
                             tx.isPostgres() ? QLatin1String(" FOR UPDATE") : QLatin1String()));
                read.addBindValue(issuer.issuer);
                if (!read.exec())
                    return Core::WriteTransaction::sqlError(read, "trusted issuer");
                if (read.next())
                    before = issuerFromRow(read);
            }
            QSqlQuery &q = tx.query(QStringLiteral(
                "INSERT INTO oauth_trusted_issuers (issuer, jwks, created_at, scopes, subjects, "
                "any_subject, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(issuer) DO "
                "UPDATE SET jwks = excluded.jwks, expires_at = excluded.expires_at, scopes = CASE "
                "WHEN ? = 1 THEN excluded.scopes ELSE "
                "oauth_trusted_issuers.scopes END, subjects = CASE WHEN ? = 1 THEN "
                "excluded.subjects ELSE oauth_trusted_issuers.subjects END, any_subject = CASE "
                "WHEN ? = 1 THEN excluded.any_subject ELSE oauth_trusted_issuers.any_subject "
                "END"));
            q.addBindValue(issuer.issuer);
            q.addBindValue(
                QString::fromUtf8(QJsonDocument(issuer.jwks).toJson(QJsonDocument::Compact)));
            q.addBindValue(now);
            q.addBindValue(
                QString(QLatin1String("") + issuer.scopes.join(QLatin1Char(' ')))); // never NULL
            q.addBindValue(subjectsText(issuer.subjects));
            q.addBindValue(issuer.anySubject ? 1 : 0);
            q.addBindValue(issuer.expiresAt > 0 ? QVariant(issuer.expiresAt) : QVariant());
            q.addBindValue(issuer.scopesGiven ? 1 : 0);
            q.addBindValue(issuer.subjectsGiven ? 1 : 0);
            q.addBindValue(issuer.subjectsGiven ? 1 : 0);
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "trusted issuer");
            // A scope or a subject taken away: the tokens minted from its assertions or
            // exchanged from its tokens carry the presenting client and its scopes, so they
            // would keep it. They go (they carry the issuer as their origin), as when the issuer
            // is removed.
            const bool narrowed =
                before &&
                ((issuer.scopesGiven &&
                  std::any_of(before->scopes.cbegin(), before->scopes.cend(),
                              [&](const QString &s) { return !issuer.scopes.contains(s); })) ||
                 (issuer.subjectsGiven && before->subjectsNarrowedBy(issuer)));
            if (narrowed) {
                Core::Statement &r = tx.stmt("UPDATE oauth_tokens SET revoked_at = ? WHERE "
                                             "origin = ? AND revoked_at IS NULL");
                if (!r.bind(1, now).bind(2, issuer.issuer).exec())
                    return Core::WriteTransaction::sqlError(r, "revoke the issuer's tokens");
            }
            return {};
        },
        std::move(done));
}

void TrustedIssuers::remove(const QString &issuer, std::function<void(Core::Result<void>)> done)
{
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    m_writer.submit(
        [issuer, now](Core::WriteTransaction &tx) -> Core::Result<void> {
            auto removed = changeExisting(
                tx, QStringLiteral("DELETE FROM oauth_trusted_issuers WHERE issuer = ?"), {issuer},
                Core::Error{QStringLiteral("issuer-not-found"),
                            QStringLiteral("no trusted issuer %1").arg(issuer), 404});
            if (!removed)
                return removed;
            // What the issuer's assertions and tokens were worth goes with it: the tokens minted
            // from them (jwt-bearer) and exchanged from them carry it as their origin.
            Core::Statement &q = tx.stmt(
                "UPDATE oauth_tokens SET revoked_at = ? WHERE origin = ? AND revoked_at IS NULL");
            if (!q.bind(1, now).bind(2, issuer).exec())
                return Core::WriteTransaction::sqlError(q, "revoke the issuer's tokens");
            return {};
        },
        std::move(done));
}

JtiCache::JtiCache(Core::Database &database, Core::WriteQueue &writer)
    : m_database(database), m_writer(writer)
{}

bool JtiCache::claim(const QString &issuer, const QString &jti, qint64 expiresAtMs, qint64 now)
{
    if (m_database.engine() == Core::Database::Engine::PostgreSQL)
        return claimInDatabase(issuer, jti, expiresAtMs, now);
    const QString key = issuer + QLatin1Char('\n') + jti;
    {
        QMutexLocker lock(&m_mutex);
        // Swept when large, at most once a second: with 100,000 live entries (a client signing
        // assertions as fast as it can) a sweep at every claim cost every claim a full scan.
        if (m_seen.size() > 100'000 && now >= m_pruneAfter) {
            m_seen.removeIf([now](const auto &it) { return it.value() <= now; });
            m_pruneAfter = now + 1000;
        }
        const auto it = m_seen.constFind(key);
        if (it != m_seen.constEnd() && it.value() > now)
            return false;
        QSqlQuery q(m_database.connection()); // seen before a restart?
        q.prepare(QStringLiteral(
            "SELECT 1 FROM oauth_jti WHERE issuer = ? AND jti = ? AND expires_at > ?"));
        q.addBindValue(issuer);
        q.addBindValue(jti);
        q.addBindValue(now);
        // Not read: refused as if seen (fail closed, as claimInDatabase), never "not seen".
        if (!q.exec() || q.next())
            return false;
        m_seen.insert(key, expiresAtMs);
    }
    m_writer.submit([issuer, jti, expiresAtMs, now](Core::WriteTransaction &tx) {
        Core::Statement &del = tx.stmt("DELETE FROM oauth_jti WHERE expires_at <= ?");
        del.bind(1, now).exec();
        Core::Statement &ins =
            tx.stmt("INSERT INTO oauth_jti (issuer, jti, expires_at) VALUES (?, ?, ?) ON "
                    "CONFLICT (issuer, jti) DO UPDATE SET expires_at = excluded.expires_at");
        if (!ins.bind(1, issuer).bind(2, jti).bind(3, expiresAtMs).exec())
            return Core::Result<void>(Core::WriteTransaction::sqlError(ins, "jti"));
        return Core::Result<void>();
    });
    return true;
}

bool JtiCache::claimIn(Core::WriteTransaction &tx, const QString &issuer, const QString &jti,
                       qint64 expiresAtMs, qint64 now)
{
    // On SQLite claim() answers from memory before its row is written: the lock is held until
    // this claim is in memory too, so that of the two calls for one jti one sees the other.
    const bool sqlite = m_database.engine() != Core::Database::Engine::PostgreSQL;
    const QString key = issuer + QLatin1Char('\n') + jti;
    QMutexLocker lock(&m_mutex);
    if (sqlite) {
        const auto it = m_seen.constFind(key);
        if (it != m_seen.constEnd() && it.value() > now)
            return false;
    }
    Core::Statement &q =
        tx.stmt("INSERT INTO oauth_jti (issuer, jti, expires_at) VALUES (?, ?, ?) ON CONFLICT "
                "(issuer, jti) DO UPDATE SET expires_at = excluded.expires_at WHERE "
                "oauth_jti.expires_at <= ?");
    if (!q.bind(1, issuer).bind(2, jti).bind(3, expiresAtMs).bind(4, now).exec() ||
        q.changes() != 1)
        return false;
    if (sqlite)
        m_seen.insert(key, expiresAtMs);
    return true;
}

bool JtiCache::claimInDatabase(const QString &issuer, const QString &jti, qint64 expiresAtMs,
                               qint64 now)
{
    // One statement, committed before the answer: of two instances presenting the same
    // assertion at once, the unique key lets one insert (or take over an expired row) and the
    // other change nothing.
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral("INSERT INTO oauth_jti (issuer, jti, expires_at) VALUES (?, ?, ?) ON "
                             "CONFLICT (issuer, jti) DO UPDATE SET expires_at = "
                             "excluded.expires_at WHERE oauth_jti.expires_at <= ?"));
    q.addBindValue(issuer);
    q.addBindValue(jti);
    q.addBindValue(expiresAtMs);
    q.addBindValue(now);
    if (!q.exec()) {
        qCWarning(lcOAuth) << "an assertion's jti could not be claimed; refused";
        return false; // fail closed
    }
    const bool claimed = q.numRowsAffected() == 1;
    if (claimed && ++m_claims % 256 == 0) // expired rows go now and then
        m_writer.submit([now](Core::WriteTransaction &tx) {
            Core::Statement &del = tx.stmt("DELETE FROM oauth_jti WHERE expires_at <= ?");
            if (!del.bind(1, now).exec())
                return Core::Result<void>(Core::WriteTransaction::sqlError(del, "jti"));
            return Core::Result<void>();
        });
    return claimed;
}

QString peekIssuer(const QByteArray &compact)
{
    auto decoded = Crypto::Jws::decodeUnverified(compact);
    if (!decoded)
        return {};
    return decoded->value(QStringLiteral("payload"))
        .toObject()
        .value(QStringLiteral("iss"))
        .toString();
}

qint64 jtiKeptUntilMs(const QJsonObject &claims)
{
    // verifyAssertion refuses once exp + leeway < now / 1000, that is from (exp + leeway + 1) s.
    return (Core::jsonSeconds(claims.value(QStringLiteral("exp"))) + kLeewayS + 1) * 1000;
}

Core::Result<QJsonObject> verifyAssertion(const QByteArray &compact, const QJsonObject &jwks,
                                          const QString &expectedIssuer,
                                          const QString &expectedSubject,
                                          const QStringList &audiences, qint64 now,
                                          qint64 maxLifetimeS, bool requireJti)
{
    auto verified = Crypto::Jws::verifyWithJwks(compact, jwks);
    if (!verified)
        return refused(QStringLiteral("the assertion's signature does not verify: %1")
                           .arg(verified.error().message));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(verified->payload, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return refused(QStringLiteral("the assertion's payload is not a JSON object"));
    const QJsonObject c = doc.object();
    const qint64 nowS = now / 1000;
    const QString iss = c.value(QStringLiteral("iss")).toString();
    if (iss.isEmpty() || (!expectedIssuer.isEmpty() && iss != expectedIssuer))
        return refused(QStringLiteral("iss must be %1").arg(expectedIssuer));
    const QString sub = c.value(QStringLiteral("sub")).toString();
    if (sub.isEmpty() || (!expectedSubject.isEmpty() && sub != expectedSubject))
        return refused(expectedSubject.isEmpty()
                           ? QStringLiteral("sub is required")
                           : QStringLiteral("sub must be %1").arg(expectedSubject));
    const QJsonValue aud = c.value(QStringLiteral("aud"));
    QStringList auds;
    if (aud.isString())
        auds.append(aud.toString());
    for (const auto &a : aud.toArray())
        auds.append(a.toString());
    if (!audiences.isEmpty() &&
        std::none_of(auds.begin(), auds.end(),
                     [&audiences](const QString &a) { return audiences.contains(a); }))
        return refused(QStringLiteral("aud must name this server (%1)")
                           .arg(audiences.join(QStringLiteral(" or "))));
    const QJsonValue exp = c.value(QStringLiteral("exp"));
    if (!exp.isDouble())
        return refused(QStringLiteral("exp is required"));
    if (Core::jsonSeconds(exp) + kLeewayS < nowS)
        return refused(QStringLiteral("the assertion has expired"));
    if (Core::jsonSeconds(exp) > nowS + maxLifetimeS)
        return refused(QStringLiteral("exp is more than %1 s in the future").arg(maxLifetimeS));
    const QJsonValue nbf = c.value(QStringLiteral("nbf"));
    if (!nbf.isUndefined() && (!nbf.isDouble() || Core::jsonSeconds(nbf) - kLeewayS > nowS))
        return refused(QStringLiteral("the assertion is not valid yet (nbf)"));
    const QJsonValue iat = c.value(QStringLiteral("iat"));
    if (!iat.isUndefined() && (!iat.isDouble() || Core::jsonSeconds(iat) - kLeewayS > nowS))
        return refused(QStringLiteral("iat is in the future"));
    if (requireJti && c.value(QStringLiteral("jti")).toString().isEmpty())
        return refused(QStringLiteral("jti is required"));
    return c;
}

} // namespace Gatehouse::OAuth
