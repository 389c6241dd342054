#pragma once

#include "core/database.h"
#include "core/result.h"

#include <QHash>
#include <QJsonObject>
#include <QReadWriteLock>
#include <QSet>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace Gatehouse::Core {
class Clock;
class WriteQueue;
} // namespace Gatehouse::Core

namespace Gatehouse::Admin {

// Who presented an admin token, and what it may do (docs/admin-tokens.md). The token in
// <data-dir>/admin-token is the root token: every area, read and write. Scoped tokens are
// created through the admin API and hold permissions "AREA:read" or "AREA:write" (write
// includes read) on the areas orders, oauth, cluster, audit and admin (the admin tokens
// themselves).
struct AdminPrincipal
{
    bool root = false;
    QString id;   // empty for the root token
    QString name; // "root" for the root token
    QSet<QString> readable;
    QSet<QString> writable;
    qint64 expiresAt = 0; // ms since the epoch; 0: never (authenticate() sets it)

    bool may(const QString &area, bool write) const
    {
        return root || (write ? writable : readable).contains(area);
    }
    QStringList permissions() const; // sorted, "orders:read", ... ("*:write" for root)
    // "admin token 'ci-reader'" or "the root admin token": for messages and the audit log.
    QString describe() const;
    // describe() with the token's id for a scoped token ("admin token 'ops' #2b810650"): a name
    // is unique among live tokens only, and a token made later under a revoked one's name must
    // not take its audit entries and the tokens it created. For the audit log and createdBy.
    QString identify() const;
    QJsonObject toJson() const; // {root, id?, name, permissions}
};

class AdminTokens
{
public:
    const Core::Clock &clock() const { return m_clock; }
    static const QStringList &areas();
    static Core::Migration migration();
    static Core::Migration changesAnnounced();  // schema version 21 (PostgreSQL: a trigger)
    static Core::Migration proofKeyMigration(); // schema version 41: proof_key, sealed

    // The area a request under /admin/v1 (or /metrics) belongs to; empty for what every valid
    // token may use: the status, the event stream (filtered by area), the metrics, the
    // dashboard's stats series (filtered by area).
    static QString areaOfPath(const QString &path);
    // The area whose readers see this event on the stream; empty: everybody (the stats,
    // backend.started); an unknown family: admin.
    static QString areaOfEvent(const QString &type);
    // Whether a request changes something. Reads: GET, HEAD, and the POSTs that only compute
    // an answer (explain, access, who-can, previews, the JWT inspector).
    static bool isWrite(const QByteArray &method, const QString &path);
    // Parses "orders:read,cluster:write" (or a JSON list of them) into a principal's sets;
    // "*:read" / "*:write" stand for every area. Empty optional and *error set when invalid.
    static bool parsePermissions(const QStringList &items, AdminPrincipal &into, QString *error);

    AdminTokens(Core::Database &database, Core::WriteQueue &writer, const Core::Clock &clock,
                QString rootToken);

    // Loads the scoped tokens from the database: at start, and again when another instance
    // announced a change. A read that a change made here overtook is read again, never applied
    // over it (a revoked token would work again until the next announcement).
    Core::Result<void> load();

    // The principal of a presented bearer token; nullopt when it is unknown, revoked or
    // expired. Thread-safe; constant time against the root token.
    std::optional<AdminPrincipal> authenticate(const QString &presented) const;
    // /admin-proof's answer for this nonce at this endpoint (Core::adminProof with the root
    // token).
    QByteArray rootProof(const QByteArray &nonce, const QString &endpoint) const;
    // /admin-proof's answer for the live token (root or scoped) that `tokenId` names
    // (Core::adminTokenProof); nullopt when none does, or (*unprovable set) when it is a token
    // made before proof keys were kept (schema 41), which cannot prove it.
    std::optional<QByteArray> tokenProof(const QString &tokenId, const QByteArray &nonce,
                                         const QString &endpoint, bool *unprovable) const;

    struct Created
    {
        AdminPrincipal principal;
        QString token; // shown once
        qint64 createdAt = 0;
        qint64 expiresAt = 0; // 0: never
    };
    // Validates the name (1..64 printable characters, unique) and permissions, which must
    // not exceed the creator's own (no escalation).
    void create(const AdminPrincipal &creator, const QString &name, const QStringList &permissions,
                qint64 expiresInMs, const QString &createdBy,
                std::function<void(Core::Result<Created>)> done);
    QJsonArray list() const;
    std::optional<QJsonObject> find(const QString &id) const;
    // 403 when `by` does not hold every permission of the token (as for creating one).
    void revoke(const AdminPrincipal &by, const QString &id,
                std::function<void(Core::Result<void>)> done);

private:
    // A 403 when `holder` lacks one of `other`'s permissions ("cannot <verb> orders:write ...").
    static std::optional<Core::Error> beyond(const AdminPrincipal &holder,
                                             const AdminPrincipal &other, const QString &verb);
    struct Entry
    {
        AdminPrincipal principal;
        QByteArray hash;
        QByteArray proofKey; // Core::adminTokenProofKey, opened; empty: made before schema 41
        qint64 createdAt = 0;
        qint64 expiresAt = 0;
        QString createdBy;
        mutable qint64 lastUsedAt = 0; // since this start; not persisted
        QJsonObject toJson() const;
    };

    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    const Core::Clock &m_clock; // creation, expiry and last use
    const QString m_root;
    mutable QReadWriteLock m_lock;
    QHash<QByteArray, Entry> m_byHash; // SHA-256 of the token → entry
    quint64 m_generation = 0;          // changes made here, under m_lock
};

} // namespace Gatehouse::Admin
