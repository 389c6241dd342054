#include "oauth/devicecodegrant.h"

#include "core/database.h"
#include "core/writequeue.h"
#include "crypto/random.h"

#include <QSqlQuery>

namespace Gatehouse::OAuth {

GrantResult DeviceCodeGrant::handle(const TokenRequest &req) const
{
    const Client &c = req.client;
    if (!c.grantTypes.contains(grantType()))
        return grantFailed(unauthorizedClient(
            QStringLiteral("the device_code grant is not among this client's grant_types")));
    const QString deviceCode = req.params.value(QStringLiteral("device_code"));
    if (deviceCode.isEmpty())
        return grantFailed(invalidRequest(QStringLiteral("device_code is required")));
    const QString hash = TokenIssuer::hashToken(deviceCode);
    const QSqlDatabase db = m_database.connection();
    if (!db.isOpen())
        return grantReadFailed(db, nullptr);
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT client_id, scope, status, user_id, auth_time, expires_at, "
                             "interval_s, last_poll_at FROM oauth_device_codes WHERE hash = ?"));
    q.addBindValue(hash);
    if (!q.exec())
        return grantReadFailed(db, &q);
    if (!q.next() || q.value(0).toString() != c.clientId)
        return grantFailed(invalidGrant(
            QStringLiteral("the device_code is unknown or was issued to another client")));
    const QString status = q.value(2).toString();
    const qint64 now = req.now;
    if (status == QLatin1String("used")) {
        // As a code used twice (RFC 6749 §4.1.2): what the first use got is revoked (a device
        // code seen by two parties), the revocation commits, then the error is answered.
        GrantResult r;
        const OAuthError e = invalidGrant(
            QStringLiteral("the device_code was already used; the tokens issued from it are "
                           "revoked"));
        r.consume = [hash, now = req.now, e](Core::WriteTransaction &tx) {
            if (!revokeCodeTokens(tx, hash, now))
                return std::optional<OAuthError>(
                    serverError(QStringLiteral("the tokens of the device_code could not be "
                                               "revoked")));
            return std::optional<OAuthError>(e);
        };
        return r;
    }
    if (q.value(5).toLongLong() <= now)
        return grantFailed({QStringLiteral("expired_token"),
                            QStringLiteral("the device_code has expired; start again")});
    if (status == QLatin1String("denied"))
        return grantFailed(
            {QStringLiteral("access_denied"), QStringLiteral("the user denied access")});
    if (status == QLatin1String("pending")) {
        const qint64 interval = q.value(6).toLongLong();
        const bool tooFast =
            !q.value(7).isNull() && now - q.value(7).toLongLong() < interval * 1000;
        const OAuthError e =
            tooFast ? OAuthError{QStringLiteral("slow_down"),
                                 QStringLiteral("polling faster than every %1 s; the interval is "
                                                "now %2 s")
                                     .arg(interval)
                                     .arg(interval + 5)}
                    : OAuthError{QStringLiteral("authorization_pending"),
                                 QStringLiteral("the user has not answered yet")};
        GrantResult r;
        r.consume = [hash, now, tooFast, e](Core::WriteTransaction &tx) {
            Core::Statement &u = tx.stmt(
                "UPDATE oauth_device_codes SET last_poll_at = ?, interval_s = interval_s + ? "
                "WHERE hash = ?");
            u.bind(1, now).bind(2, tooFast ? 5 : 0).bind(3, hash).exec();
            return std::optional<OAuthError>(e);
        };
        return r;
    }
    const auto userRead = m_users.lookup(q.value(3).toString());
    if (!userRead) // not read: try again (the grant is not spent), not "no longer exists"
        return grantFailed(
            storageError(userRead.error(), QStringLiteral("the user could not be read")));
    const std::optional<User> &user = *userRead;
    if (!user)
        return grantFailed(
            invalidGrant(QStringLiteral("the user of this device_code no longer exists")));
    GrantResult out;
    UserTokenRequest utr;
    utr.client = &c;
    utr.user = &*user;
    utr.scopes = q.value(1).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    // Within what the client may still have: an administrator may have narrowed it since.
    utr.scopes.removeIf([&c](const QString &s) { return !c.scopes.contains(s); });
    utr.authTime = q.value(4).toLongLong();
    utr.family = Crypto::Random::uuid();
    utr.codeHash = hash; // revoked together if the device code is presented again
    utr.now = now;
    issueUserTokens(m_issuer, utr, &out);
    if (out.error)
        return out;
    const QString userId = user->id;
    out.consume = [hash, userId, now](Core::WriteTransaction &tx) -> std::optional<OAuthError> {
        if (auto refused = userRefusal(tx, userId))
            return refused;
        Core::Statement &u = tx.stmt(
            "UPDATE oauth_device_codes SET status = 'used' WHERE hash = ? AND status = 'approved'");
        if (!u.bind(1, hash).exec())
            return serverError(QStringLiteral("the device_code could not be marked used"));
        if (u.changes() == 1)
            return std::nullopt;
        Core::Statement &st = tx.stmt("SELECT status FROM oauth_device_codes WHERE hash = ?");
        const bool used = st.bind(1, hash).next() && st.text(0) == QLatin1String("used");
        st.next(); // done with it
        if (!used) // denied meanwhile (an administrator, the user's tokens revoked)
            return OAuthError{QStringLiteral("access_denied"),
                              QStringLiteral("the device_code was denied")};
        // Redeemed concurrently by another request: that one wins, and both lose their tokens.
        revokeCodeTokens(tx, hash, now);
        return invalidGrant(QStringLiteral("the device_code was already used; the tokens issued "
                                           "from it are revoked"));
    };
    return out;
}

} // namespace Gatehouse::OAuth
