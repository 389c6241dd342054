#include "oauth/oauthstore.h"
#include "oauth/signinstore.h"

#include "core/writequeue.h"

#include <QSqlQuery>

namespace Gatehouse::OAuth {

Core::Result<void> changeExisting(Core::WriteTransaction &tx, const QString &sql,
                                  const QVariantList &keys, const Core::Error &notFound)
{
    QSqlQuery &q = tx.query(sql);
    for (const QVariant &k : keys)
        q.addBindValue(k);
    if (!q.exec())
        return Core::WriteTransaction::sqlError(q, "change");
    if (q.numRowsAffected() == 0)
        return notFound;
    return {};
}

Core::Migration OAuthStore::migration()
{
    return {4,
            QStringLiteral("oauth: signing keys, clients, tokens"),
            {QStringLiteral("CREATE TABLE oauth_signing_keys (kid TEXT PRIMARY KEY, alg TEXT NOT "
                            "NULL, private_pem TEXT NOT NULL, state TEXT NOT NULL, created_at "
                            "INTEGER NOT NULL, retire_after INTEGER)"),
             QStringLiteral("CREATE TABLE oauth_clients (client_id TEXT PRIMARY KEY, secret_hash "
                            "TEXT, record TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at "
                            "INTEGER NOT NULL)"),
             // Tokens are kept only as SHA-256 hashes (base64url), JWTs and opaque alike.
             QStringLiteral("CREATE TABLE oauth_tokens (hash TEXT PRIMARY KEY, kind TEXT NOT NULL, "
                            "format TEXT NOT NULL, client_id TEXT NOT NULL, subject TEXT NOT NULL, "
                            "scope TEXT NOT NULL, audience TEXT NOT NULL, issued_at INTEGER NOT "
                            "NULL, expires_at INTEGER NOT NULL, revoked_at INTEGER) WITHOUT ROWID"),
             QStringLiteral("CREATE INDEX oauth_tokens_client ON oauth_tokens(client_id)")}};
}

Core::Migration OAuthStore::usersAndCodes()
{
    return {5,
            QStringLiteral("oauth: users, authorization codes, consents, token families"),
            {QStringLiteral("CREATE TABLE oauth_users (id TEXT PRIMARY KEY, username TEXT NOT NULL "
                            "UNIQUE COLLATE NOCASE, password_hash TEXT NOT NULL, email TEXT, "
                            "email_verified INTEGER NOT NULL DEFAULT 0, name TEXT, groups TEXT NOT "
                            "NULL DEFAULT '[]', failed_logins INTEGER NOT NULL DEFAULT 0, "
                            "locked_until INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER "
                            "NOT NULL)"),
             // Codes are kept as SHA-256 hashes; used_at makes them single use.
             QStringLiteral("CREATE TABLE oauth_codes (hash TEXT PRIMARY KEY, client_id TEXT NOT "
                            "NULL, user_id TEXT NOT NULL, redirect_uri TEXT, scope TEXT NOT NULL, "
                            "nonce TEXT, code_challenge TEXT, auth_time INTEGER NOT NULL, "
                            "issued_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, used_at "
                            "INTEGER) WITHOUT ROWID"),
             QStringLiteral("CREATE TABLE oauth_consents (user_id TEXT NOT NULL, client_id TEXT "
                            "NOT NULL, scope TEXT NOT NULL, granted_at INTEGER NOT NULL, PRIMARY "
                            "KEY (user_id, client_id)) WITHOUT ROWID"),
             // A family is every token descended from one code (or one first refresh token);
             // rotated_at marks a refresh token that was exchanged (reuse revokes the family).
             QStringLiteral("ALTER TABLE oauth_tokens ADD COLUMN family TEXT"),
             QStringLiteral("ALTER TABLE oauth_tokens ADD COLUMN code_hash TEXT"),
             QStringLiteral("ALTER TABLE oauth_tokens ADD COLUMN auth_time INTEGER"),
             QStringLiteral("ALTER TABLE oauth_tokens ADD COLUMN rotated_at INTEGER"),
             QStringLiteral("CREATE INDEX oauth_tokens_family ON oauth_tokens(family) WHERE "
                            "family IS NOT NULL"),
             QStringLiteral("CREATE INDEX oauth_tokens_code ON oauth_tokens(code_hash) WHERE "
                            "code_hash IS NOT NULL"),
             QStringLiteral("CREATE INDEX oauth_tokens_subject ON oauth_tokens(subject)")}};
}

Core::Migration OAuthStore::deviceCodes()
{
    // RFC 8628: status pending -> approved | denied -> used; last_poll_at and interval for
    // slow_down.
    return {6,
            QStringLiteral("oauth: device authorization"),
            {QStringLiteral("CREATE TABLE oauth_device_codes (hash TEXT PRIMARY KEY, user_code "
                            "TEXT NOT NULL UNIQUE, client_id TEXT NOT NULL, scope TEXT NOT NULL, "
                            "status TEXT NOT NULL, user_id TEXT, auth_time INTEGER, issued_at "
                            "INTEGER NOT NULL, expires_at INTEGER NOT NULL, interval_s INTEGER NOT "
                            "NULL, last_poll_at INTEGER) WITHOUT ROWID")}};
}

Core::Migration OAuthStore::registration()
{
    // RFC 7591 initial access tokens (hash only) and RFC 7592 registration access tokens.
    return {7,
            QStringLiteral("oauth: dynamic client registration"),
            {QStringLiteral("CREATE TABLE oauth_initial_access_tokens (id TEXT PRIMARY KEY, hash "
                            "TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL, expires_at INTEGER "
                            "NOT NULL, max_uses INTEGER NOT NULL, used_count INTEGER NOT NULL "
                            "DEFAULT 0)"),
             QStringLiteral("ALTER TABLE oauth_clients ADD COLUMN registration_token_hash TEXT")}};
}

Core::Migration OAuthStore::assertions()
{
    // RFC 7523 trusted issuers and the jti replay cache.
    return {
        8,
        QStringLiteral("oauth: trusted issuers, assertion replay cache"),
        {QStringLiteral("CREATE TABLE oauth_trusted_issuers (issuer TEXT PRIMARY KEY, jwks TEXT "
                        "NOT NULL, created_at INTEGER NOT NULL)"),
         QStringLiteral("CREATE TABLE oauth_jti (issuer TEXT NOT NULL, jti TEXT NOT NULL, "
                        "expires_at INTEGER NOT NULL, PRIMARY KEY (issuer, jti)) WITHOUT ROWID")}};
}

Core::Migration OAuthStore::tokensInIssueOrder()
{
    // oauth_tokens was keyed by the token's hash: every new token landed on a random page of
    // the table and of its client and subject indexes, three random B-tree pages written per
    // token. Now rows are kept in issue order (rowid) with a unique index on the hash, so a
    // commit of many tokens appends to the table and to the client and subject indexes, and
    // only the hash index is written at random. Lookups by hash stay one index probe.
    const QString columns = QStringLiteral(
        "hash, kind, format, client_id, subject, scope, audience, issued_at, expires_at, "
        "revoked_at, family, code_hash, auth_time, rotated_at");
    return {13,
            QStringLiteral("oauth: tokens kept in issue order"),
            {QStringLiteral("CREATE TABLE oauth_tokens_in_order (id INTEGER PRIMARY KEY, hash TEXT "
                            "NOT NULL UNIQUE, kind TEXT NOT NULL, format TEXT NOT NULL, client_id "
                            "TEXT NOT NULL, subject TEXT NOT NULL, scope TEXT NOT NULL, audience "
                            "TEXT NOT NULL, issued_at INTEGER NOT NULL, expires_at INTEGER NOT "
                            "NULL, revoked_at INTEGER, family TEXT, code_hash TEXT, auth_time "
                            "INTEGER, rotated_at INTEGER)"),
             QStringLiteral("INSERT INTO oauth_tokens_in_order (%1) SELECT %1 FROM oauth_tokens "
                            "ORDER BY issued_at, hash")
                 .arg(columns),
             QStringLiteral("DROP TABLE oauth_tokens"),
             QStringLiteral("ALTER TABLE oauth_tokens_in_order RENAME TO oauth_tokens"),
             QStringLiteral("CREATE INDEX oauth_tokens_client ON oauth_tokens(client_id)"),
             QStringLiteral("CREATE INDEX oauth_tokens_family ON oauth_tokens(family) WHERE "
                            "family IS NOT NULL"),
             QStringLiteral("CREATE INDEX oauth_tokens_code ON oauth_tokens(code_hash) WHERE "
                            "code_hash IS NOT NULL"),
             QStringLiteral("CREATE INDEX oauth_tokens_subject ON oauth_tokens(subject)")}};
}

Core::Migration OAuthStore::userTokensIndex()
{
    // The subject index serves one question, "the tokens of this user" (deleting a user, the
    // audit of a user). A token a client holds for itself (client_credentials, an assertion
    // of its own) has its client_id as subject and is never a user's, yet every one of them
    // was written into the index: a fourth B-tree page per commit on the token endpoint's
    // path. Those rows now stay out of it; the queries say `subject <> client_id`.
    return {15,
            QStringLiteral("oauth: subject index for tokens held for a user only"),
            {QStringLiteral("DROP INDEX oauth_tokens_subject"),
             QStringLiteral("CREATE INDEX oauth_tokens_subject ON oauth_tokens(subject) WHERE "
                            "subject <> client_id")}};
}

Core::Migration OAuthStore::trustBoundaries()
{
    // An initial access token may carry its own registration policy (JSON; NULL: the
    // server's), and a trusted issuer the scopes its subject tokens may be exchanged for
    // (space-separated; empty: none). id_tokens are recorded in oauth_tokens (kind 'id') so
    // that token exchange can tell whether the grant behind one is still alive.
    return {16,
            QStringLiteral("oauth: registration policies, trusted issuer scopes"),
            {QStringLiteral("ALTER TABLE oauth_initial_access_tokens ADD COLUMN policy TEXT"),
             QStringLiteral("ALTER TABLE oauth_trusted_issuers ADD COLUMN scopes TEXT NOT NULL "
                            "DEFAULT ''")}};
}

Core::Migration OAuthStore::tokenOrigins()
{
    // The other issuer a token descends from (NULL: this server's own), so that a token
    // exchanged from another issuer's token or assertion, however many times, is never
    // exchanged again into the cluster API.
    return {17,
            QStringLiteral("oauth: token origins"),
            {QStringLiteral("ALTER TABLE oauth_tokens ADD COLUMN origin TEXT")}};
}

QList<Core::Migration> OAuthStore::all()
{
    return {migration(),
            usersAndCodes(),
            deviceCodes(),
            registration(),
            assertions(),
            tokensInIssueOrder(),
            userTokensIndex(),
            trustBoundaries(),
            tokenOrigins(),
            tokenParents(),
            tokenActors(),
            credentialEnds(),
            SignInStore::migration(),
            changesAnnounced(),
            loginRate(),
            codeRedirectUris(),
            issuerSubjects(),
            codeSessions()};
}

Core::Migration OAuthStore::issuerSubjects()
{
    // Whom a trusted issuer may assert (a JSON array of subjects, or any): an issuer trusted
    // before could assert any subject, and keeps that until an administrator narrows it; a new
    // one is given its subjects (docs/oauth.md).
    return {33,
            QStringLiteral("oauth: the subjects a trusted issuer may assert"),
            {QStringLiteral("ALTER TABLE oauth_trusted_issuers ADD COLUMN subjects TEXT NOT NULL "
                            "DEFAULT '[]'"),
             QStringLiteral("ALTER TABLE oauth_trusted_issuers ADD COLUMN any_subject INTEGER "
                            "NOT NULL DEFAULT 1")}};
}

Core::Migration OAuthStore::codeSessions()
{
    // The browser session a code was issued in (the hash of its cookie), so that signing out
    // there (RP-Initiated Logout) revokes what that sign-in issued: the code's tokens, their
    // refresh families and what was exchanged from them (code_hash), unless offline_access
    // was granted (docs/oauth.md, "Sign-out").
    return {34,
            QStringLiteral("oauth: the browser session of a code"),
            {QStringLiteral("ALTER TABLE oauth_codes ADD COLUMN session_hash TEXT"),
             QStringLiteral("CREATE INDEX oauth_codes_session ON oauth_codes(session_hash) WHERE "
                            "session_hash IS NOT NULL")}};
}

Core::Migration OAuthStore::codeRedirectUris()
{
    // A code asked for without redirect_uri (the client's only one) records where it went, so
    // that an administrator's removal of that URI takes the code with it; redirect_uri stays
    // NULL then, as RFC 6749 §4.1.3 asks no redirect_uri of its token request.
    return {32,
            QStringLiteral("oauth: the redirect URI of a code asked for without one"),
            {QStringLiteral("ALTER TABLE oauth_codes ADD COLUMN implied_redirect_uri TEXT")}};
}

Core::Migration OAuthStore::changesAnnounced()
{
    // PostgreSQL: a client or signing key changed by one instance is read again by the others
    // (ChangeFeed).
    return {22,
            QStringLiteral("oauth: changes announced to other instances"),
            {},
            {Core::Database::notifyFunction(),
             QStringLiteral("CREATE TRIGGER oauth_clients_changed AFTER INSERT OR UPDATE OR DELETE "
                            "ON oauth_clients FOR EACH ROW EXECUTE FUNCTION "
                            "gatehouse_notify('client_id')"),
             QStringLiteral("CREATE TRIGGER oauth_signing_keys_changed AFTER INSERT OR UPDATE OR "
                            "DELETE ON oauth_signing_keys FOR EACH ROW EXECUTE FUNCTION "
                            "gatehouse_notify('kid')")}};
}

Core::Migration OAuthStore::loginRate()
{
    // Sign-in attempts per client address and minute, shared by the instances of a PostgreSQL
    // database (AuthorizeEndpoint::rateLimited; SQLite's one instance counts in memory).
    return {23,
            QStringLiteral("oauth: sign-in attempts per address"),
            {QStringLiteral("CREATE TABLE oauth_login_rate (address TEXT PRIMARY KEY, window_start "
                            "INTEGER NOT NULL, attempts INTEGER NOT NULL)")}};
}

Core::Migration OAuthStore::tokenParents()
{
    // The subject token an exchanged token was made from, so that revoking a token (or
    // deleting its client) revokes what was exchanged from it, down the whole chain.
    return {18,
            QStringLiteral("oauth: token parents"),
            {QStringLiteral("ALTER TABLE oauth_tokens ADD COLUMN parent TEXT"),
             QStringLiteral("CREATE INDEX oauth_tokens_parent ON oauth_tokens(parent) WHERE "
                            "parent IS NOT NULL")}};
}

Core::Migration OAuthStore::tokenActors()
{
    // An exchanged token's chain of delegation (its act claim, compact JSON): an opaque token
    // has no claims to carry it, so introspection could not say who acts, and exchanging such
    // a token again dropped the earlier actors.
    return {38,
            QStringLiteral("oauth: who acts for an exchanged token's subject"),
            {QStringLiteral("ALTER TABLE oauth_tokens ADD COLUMN act TEXT")}};
}

Core::Migration OAuthStore::credentialEnds()
{
    // No credential outlives the expiring admin token that issued it (docs/admin-tokens.md):
    // the clients an initial access token registers end when its creator does (a client's own
    // end is in its record, client_secret_expires_at), and so do the trust in an issuer's
    // keys and a password it set. NULL: never.
    return {39,
            QStringLiteral("oauth: credentials that end with the admin token that issued them"),
            {QStringLiteral("ALTER TABLE oauth_initial_access_tokens ADD COLUMN credentials_until "
                            "INTEGER"),
             QStringLiteral("ALTER TABLE oauth_trusted_issuers ADD COLUMN expires_at INTEGER"),
             QStringLiteral("ALTER TABLE oauth_users ADD COLUMN password_until INTEGER")}};
}

} // namespace Gatehouse::OAuth
