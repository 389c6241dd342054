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
    static Core::Migration migration();     // schema version 4
    static Core::Migration usersAndCodes(); // schema version 5
    static Core::Migration deviceCodes();
    static Core::Migration registration();       // schema version 7   // schema version 6
    static Core::Migration assertions();         // schema version 8
    static Core::Migration tokensInIssueOrder(); // schema version 13
    static Core::Migration userTokensIndex();
    static Core::Migration trustBoundaries(); // schema version 15
};

// Runs a DELETE (or UPDATE) with keys bound in order; `notFound` when it changed no row.
Core::Result<void> changeExisting(Core::WriteTransaction &tx, const QString &sql,
                                  const QVariantList &keys, const Core::Error &notFound);

} // namespace Gatehouse::OAuth
