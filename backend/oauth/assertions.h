#pragma once

#include "core/result.h"

#include <QHash>
#include <QJsonObject>
#include <QMutex>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace Gatehouse::Core {
class Clock;
class Database;
class WriteQueue;
class WriteTransaction;
} // namespace Gatehouse::Core

namespace Gatehouse::OAuth {

// An issuer whose JWTs this server accepts as authorization grants (RFC 7523 §2.1) and as
// subject / actor tokens in token exchange (RFC 8693): its JWKS and the audiences it may name
// (empty: this server's issuer and token endpoint).
struct TrustedIssuer
{
    QString issuer;
    QJsonObject jwks;
    // The scopes its tokens may become here (jwt-bearer, token exchange); an administrator's
    // list, never the client's whole registration. Empty: no scope.
    QStringList scopes;
    bool scopesGiven = true; // fromJson: "scopes" was in the body (re-adding keeps them if not)
    qint64 createdAt = 0;
    // Whom its assertions (and subject tokens) may name as their `sub` here: each entry the
    // `sub` itself, or a local user's id or username (ORY Hydra's trust relationships). Any
    // subject only when an administrator says so (anySubject): otherwise a partner's identity
    // provider could act as every local user, within its scopes.
    QStringList subjects;
    bool anySubject = false;
    bool subjectsGiven = true; // fromJson: "subjects" or "anySubject" was in the body
    // When the trust in its keys ends (ms; 0: never): the end of the expiring admin token
    // that added it, so that no credential outlives it (docs/admin-tokens.md). Each addition
    // states the trust anew: one without such a bound lifts it.
    qint64 expiresAt = 0;
    bool ended(qint64 now) const { return expiresAt > 0 && now >= expiresAt; }
    QJsonObject toJson() const;
    static Core::Result<TrustedIssuer> fromJson(const QJsonObject &o);
    // Whether a subject known by these names (the assertion's `sub`, and the id and username
    // of the local user it names) may be asserted.
    bool mayAssert(const QStringList &names) const;
    // Whether `after` lets this issuer assert less than it does now.
    bool subjectsNarrowedBy(const TrustedIssuer &after) const;
};

class TrustedIssuers
{
public:
    TrustedIssuers(Core::Database &database, Core::WriteQueue &writer, const Core::Clock &clock);
    // now > 0: nullopt as well for an issuer whose trust ended then (TrustedIssuer::ended), as
    // its assertions and tokens are judged; 0: as stored.
    std::optional<TrustedIssuer> find(const QString &issuer, qint64 now = 0) const;
    QList<TrustedIssuer> all() const;
    void add(const TrustedIssuer &issuer, std::function<void(Core::Result<void>)> done);
    void remove(const QString &issuer, std::function<void(Core::Result<void>)> done);

private:
    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    const Core::Clock &m_clock;
};

// RFC 7523 §3: one use per (issuer, jti) while the assertion is valid. On SQLite (one
// instance) claimed atomically in memory and persisted (so a restart does not reopen the
// window); on PostgreSQL claimed in the database, by one committed statement on the request's
// thread, so that instances sharing it never both accept one assertion.
class JtiCache
{
public:
    JtiCache(Core::Database &database, Core::WriteQueue &writer);
    bool claim(const QString &issuer, const QString &jti, qint64 expiresAtMs, qint64 now);
    // The same claim in the writer's transaction `tx`, for a grant that spends an assertion only
    // when it stores its tokens (token exchange: a token preview runs the grant without it).
    // False when the jti was claimed before (by either call) or cannot be recorded.
    bool claimIn(Core::WriteTransaction &tx, const QString &issuer, const QString &jti,
                 qint64 expiresAtMs, qint64 now);

private:
    bool claimInDatabase(const QString &issuer, const QString &jti, qint64 expiresAtMs, qint64 now);

    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    QMutex m_mutex;
    QHash<QString, qint64> m_seen; // issuer + '\n' + jti -> expiry
    qint64 m_pruneAfter = 0;       // the next sweep of m_seen (at most one a second)
    std::atomic<quint64> m_claims{0};
};

// Verifies a JWT assertion (RFC 7523 §3): signature against jwks (RS256, PS256, ES256 only),
// iss (when expectedIssuer is not empty), sub (when expectedSubject is not empty) and a non-empty
// sub, aud containing one of audiences, exp present and not past, not too far ahead
// (maxLifetimeS), nbf and iat not in the future, jti present. The payload, or an error saying
// which rule failed.
Core::Result<QJsonObject> verifyAssertion(const QByteArray &compact, const QJsonObject &jwks,
                                          const QString &expectedIssuer,
                                          const QString &expectedSubject,
                                          const QStringList &audiences, qint64 now,
                                          qint64 maxLifetimeS = 3600, bool requireJti = true);

// Until when (ms) the jti of an assertion verifyAssertion() accepted must be remembered: past
// the last millisecond it can still be accepted (its exp plus the leeway, in whole seconds as
// verifyAssertion compares them). A jti forgotten at exp + leeway in ms left a second in which
// the same assertion passed again.
qint64 jtiKeptUntilMs(const QJsonObject &claims);

// The unverified `iss` of a compact JWT (to pick the key set); empty when unreadable.
QString peekIssuer(const QByteArray &compact);

} // namespace Gatehouse::OAuth
