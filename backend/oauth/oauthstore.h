#pragma once

#include "core/database.h"
#include "core/result.h"

#include <QVariantList>

namespace Gatehouse::Core {
class WriteTransaction;
}

namespace Gatehouse::OAuth {

// Schema of the authorization server (grows with the grants still to come).
struct OAuthStore
{
    // Schema versions 4, 5, 6, 7, 8, 13, 15 and 16, in this order.
    static Core::Migration migration();
    static Core::Migration usersAndCodes();
    static Core::Migration deviceCodes();
    static Core::Migration registration();
    static Core::Migration assertions();
    static Core::Migration tokensInIssueOrder();
    static Core::Migration userTokensIndex();
    static Core::Migration trustBoundaries();
    static Core::Migration tokenOrigins();
    static Core::Migration tokenParents();
    static Core::Migration tokenActors();
    static Core::Migration credentialEnds();
    static Core::Migration changesAnnounced(); // PostgreSQL: a trigger
    static Core::Migration loginRate();
    // Schema 32: the redirect URI a code was issued for when the request named none.
    static Core::Migration codeRedirectUris();
    static Core::Migration issuerSubjects();
    static Core::Migration codeSessions();
    // Every migration above (Core::Database::open applies them in version order, among the
    // other modules').
    static QList<Core::Migration> all();
};

// Runs a DELETE (or UPDATE) with keys bound in order; `notFound` when it changed no row.
Core::Result<void> changeExisting(Core::WriteTransaction &tx, const QString &sql,
                                  const QVariantList &keys, const Core::Error &notFound);

} // namespace Gatehouse::OAuth
