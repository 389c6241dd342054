#include "oauth/oauthstore.h"

namespace Gatehouse::OAuth {

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

} // namespace Gatehouse::OAuth
