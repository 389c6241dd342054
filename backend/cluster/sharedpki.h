#pragma once

#include "core/result.h"

#include <QDateTime>
#include <QString>

namespace Gatehouse::Core {
class Database;
struct Migration;
} // namespace Gatehouse::Core

namespace Gatehouse::Cluster {

// The cluster's CA and its service-account signing key: one of each for every instance of a
// PostgreSQL database (docs/storage.md, "The cluster's CA across instances"), so that a client
// certificate or a service-account token one instance issued is good on all. They are kept in
// the database (the private keys sealed with the database key) and copied into each instance's
// pki/ directory, where the rest of the start reads them; each instance's server certificate
// stays its own, issued by that CA.
class SharedPki
{
public:
    static Core::Migration migration();

    // Before the CA and the service-account key are read from pkiDir. The database's are
    // written there; what this instance held before, if it differs, is kept beside as
    // <file>.replaced-<time>, and a warning says so. A database without them yet is offered
    // this instance's (made now if it has none), and all instances use whichever was offered
    // first.
    static Result<void> adopt(Core::Database &database, const QString &pkiDir,
                              const QDateTime &now);
};

} // namespace Gatehouse::Cluster
