#include "admin/admintokens.h"

#include "admin/adminapi.h"
#include "admin/adminlogging.h"
#include "core/adminproof.h"
#include "core/clock.h"
#include "core/writequeue.h"
#include "crypto/digest.h"
#include "crypto/random.h"

#include <QDateTime>
#include <QJsonArray>
#include <QSqlQuery>

#include <algorithm>

namespace Gatehouse::Admin {

namespace {

QByteArray hashToken(const QString &token)
{
    return Crypto::Digest::sha256(token.toUtf8()).toHex();
}

// The sealing context of a token's proof key: bound to its row.
QByteArray proofKeyContext(const QString &id)
{
    return "admin-token-proof/" + id.toLatin1();
}

// Scoped tokens start with this, so a leaked one is recognisable (secret scanners, logs).
constexpr QLatin1String TokenPrefix("gha_");

} // namespace

const QStringList &AdminTokens::areas()
{
    static const QStringList list{QStringLiteral("orders"), QStringLiteral("oauth"),
                                  QStringLiteral("cluster"), QStringLiteral("audit"),
                                  QStringLiteral("admin")};
    return list;
}

Core::Migration AdminTokens::migration()
{
    return {12,
            QStringLiteral("scoped admin tokens"),
            {QStringLiteral("CREATE TABLE admin_tokens (id TEXT PRIMARY KEY, name TEXT NOT NULL "
                            "UNIQUE, hash TEXT NOT NULL UNIQUE, permissions TEXT NOT NULL, "
                            "created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, "
                            "created_by TEXT NOT NULL)")}};
}

Core::Migration AdminTokens::proofKeyMigration()
{
    // The key of a token's proof at /admin-proof (Core::adminTokenProofKey), sealed with the
    // database key: not derivable from `hash`, which a reader of the database has.
    return {41,
            QStringLiteral("admin tokens: the key of their listener's proof, sealed"),
            {QStringLiteral("ALTER TABLE admin_tokens ADD COLUMN proof_key TEXT")}};
}

Core::Migration AdminTokens::changesAnnounced()
{
    return {21,
            QStringLiteral("admin tokens: changes announced to other instances"),
            {},
            {Core::Database::notifyFunction(),
             QStringLiteral("CREATE TRIGGER admin_tokens_changed AFTER INSERT OR UPDATE OR DELETE "
                            "ON admin_tokens FOR EACH ROW EXECUTE FUNCTION "
                            "gatehouse_notify('id')")}};
}

QString AdminTokens::areaOfPath(const QString &path)
{
    if (!path.startsWith(QLatin1String("/admin/v1/")))
        return {}; // /metrics (the guard has already checked the token)
    const QString rest = path.mid(10);
    const QString first = rest.section(QLatin1Char('/'), 0, 0);
    if (first == QLatin1String("status") || first == QLatin1String("events"))
        return {};
    // The dashboard's counters: every valid token, each seeing only its areas' fields
    // (StatsSeries::forReader).
    if (rest == QLatin1String("stats/series"))
        return {};
    static const QHash<QString, QString> byNoun{
        {QStringLiteral("customers"), QStringLiteral("orders")},
        {QStringLiteral("beers"), QStringLiteral("orders")},
        {QStringLiteral("orders"), QStringLiteral("orders")},
        {QStringLiteral("test-orders"), QStringLiteral("orders")},
        {QStringLiteral("deliveries"), QStringLiteral("orders")},
        {QStringLiteral("redeliveries"), QStringLiteral("orders")},
        {QStringLiteral("endpoints"), QStringLiteral("orders")},
        {QStringLiteral("demo-receiver"), QStringLiteral("orders")},
        {QStringLiteral("clients"), QStringLiteral("oauth")},
        {QStringLiteral("users"), QStringLiteral("oauth")},
        {QStringLiteral("tokens"), QStringLiteral("oauth")},
        {QStringLiteral("consents"), QStringLiteral("oauth")},
        {QStringLiteral("signing-keys"), QStringLiteral("oauth")},
        {QStringLiteral("trusted-issuers"), QStringLiteral("oauth")},
        {QStringLiteral("initial-access-tokens"), QStringLiteral("oauth")},
        {QStringLiteral("jwt"), QStringLiteral("oauth")},
        {QStringLiteral("oauth"), QStringLiteral("oauth")},
        {QStringLiteral("cluster"), QStringLiteral("cluster")},
        {QStringLiteral("audit"), QStringLiteral("audit")},
    };
    // Anything else (admin-tokens, and paths that do not exist) needs the admin area: a
    // scoped token learns nothing from a 404 it could not have got otherwise.
    return byNoun.value(first, QStringLiteral("admin"));
}

QString AdminTokens::areaOfEvent(const QString &type)
{
    const QString family = type.section(QLatin1Char('.'), 0, 0);
    static const QHash<QString, QString> byFamily{
        {QStringLiteral("order"), QStringLiteral("orders")},
        {QStringLiteral("customer"), QStringLiteral("orders")},
        {QStringLiteral("beer"), QStringLiteral("orders")},
        {QStringLiteral("delivery"), QStringLiteral("orders")},
        {QStringLiteral("redelivery"), QStringLiteral("orders")},
        {QStringLiteral("endpoint"), QStringLiteral("orders")},
        {QStringLiteral("demo"), QStringLiteral("orders")},
        {QStringLiteral("oauth"), QStringLiteral("oauth")},
        {QStringLiteral("cluster"), QStringLiteral("cluster")},
        {QStringLiteral("audit"), QStringLiteral("audit")},
        {QStringLiteral("admin-token"), QStringLiteral("admin")},
        {QStringLiteral("setting"), QStringLiteral("admin")},
    };
    // The stats (each counter filtered for its reader) and backend.started: everybody. Any
    // other family (a new one nobody mapped, a newer instance's relayed through the database)
    // only for admin readers: fail closed.
    if (family == QLatin1String("stats") || type == QLatin1String("backend.started"))
        return {};
    return byFamily.value(family, QStringLiteral("admin"));
}

bool AdminTokens::isWrite(const QByteArray &method, const QString &path)
{
    if (method == "GET" || method == "HEAD")
        return false;
    if (method != "POST")
        return true;
    static const QStringList computeOnly{
        QStringLiteral("/admin/v1/cluster/explain"),
        QStringLiteral("/admin/v1/cluster/access"),
        QStringLiteral("/admin/v1/cluster/who-can"),
        QStringLiteral("/admin/v1/oauth/access"),
        QStringLiteral("/admin/v1/tokens/preview"),
        QStringLiteral("/admin/v1/jwt/inspect"),
        QStringLiteral("/admin/v1/redeliveries/preview"),
    };
    return !computeOnly.contains(path);
}

bool AdminTokens::parsePermissions(const QStringList &items, AdminPrincipal &into, QString *error)
{
    if (items.isEmpty()) {
        *error = QStringLiteral("at least one permission is needed (AREA:read or AREA:write; "
                                "areas: %1, or * for all)")
                     .arg(areas().join(QLatin1String(", ")));
        return false;
    }
    for (const QString &raw : items) {
        const QString item = raw.trimmed();
        const QString area = item.section(QLatin1Char(':'), 0, 0);
        const QString access = item.section(QLatin1Char(':'), 1);
        const bool all = area == QLatin1String("*");
        if ((!all && !areas().contains(area)) ||
            (access != QLatin1String("read") && access != QLatin1String("write"))) {
            *error = QStringLiteral("'%1' is not a permission: AREA:read or AREA:write, areas: "
                                    "%2, or * for all")
                         .arg(item.left(80), areas().join(QLatin1String(", ")));
            return false;
        }
        const QStringList targets = all ? areas() : QStringList{area};
        for (const QString &a : targets) {
            into.readable.insert(a);
            if (access == QLatin1String("write"))
                into.writable.insert(a);
        }
    }
    return true;
}

QStringList AdminPrincipal::permissions() const
{
    if (root)
        return {QStringLiteral("*:write")};
    QStringList out;
    for (const QString &area : AdminTokens::areas()) {
        if (writable.contains(area))
            out.append(area + QLatin1String(":write"));
        else if (readable.contains(area))
            out.append(area + QLatin1String(":read"));
    }
    return out;
}

QString AdminPrincipal::describe() const
{
    return root ? QStringLiteral("the root admin token")
                : QStringLiteral("admin token '%1'").arg(name);
}

QString AdminPrincipal::identify() const
{
    return root ? describe() : QStringLiteral("%1 #%2").arg(describe(), id.left(8));
}

QJsonObject AdminPrincipal::toJson() const
{
    QJsonObject o{{QStringLiteral("root"), root},
                  {QStringLiteral("name"), name},
                  {QStringLiteral("permissions"), QJsonArray::fromStringList(permissions())}};
    if (!id.isEmpty())
        o.insert(QStringLiteral("id"), id);
    return o;
}

QJsonObject AdminTokens::Entry::toJson() const
{
    QJsonObject o = principal.toJson();
    o.remove(QStringLiteral("root"));
    o.insert(QStringLiteral("createdAt"), Core::isoTimeMs(createdAt));
    o.insert(QStringLiteral("createdBy"), createdBy);
    o.insert(QStringLiteral("expiresAt"),
             expiresAt > 0 ? QJsonValue(Core::isoTimeMs(expiresAt)) : QJsonValue());
    o.insert(QStringLiteral("lastUsedAt"),
             lastUsedAt > 0 ? QJsonValue(Core::isoTimeMs(lastUsedAt)) : QJsonValue());
    return o;
}

AdminTokens::AdminTokens(Core::Database &database, Core::WriteQueue &writer,
                         const Core::Clock &clock, QString rootToken)
    : m_database(database), m_writer(writer), m_clock(clock), m_root(std::move(rootToken))
{}

Core::Result<void> AdminTokens::load()
{
    // Enough for any burst of changes made here; past it, the announcement of the last of them
    // reads again.
    constexpr int kAttempts = 10;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        quint64 seen = 0;
        {
            QReadLocker lock(&m_lock);
            seen = m_generation;
        }
        QSqlQuery q(m_database.connection());
        if (!q.exec(QStringLiteral("SELECT id, name, hash, permissions, created_at, expires_at, "
                                   "created_by, proof_key FROM admin_tokens")))
            return Core::makeError(QStringLiteral("admin-tokens"),
                                   QStringLiteral("cannot read the admin tokens"));
        QHash<QByteArray, Entry> loaded;
        while (q.next()) {
            Entry e;
            e.principal.id = q.value(0).toString();
            e.principal.name = q.value(1).toString();
            e.hash = q.value(2).toByteArray();
            QString error;
            if (!parsePermissions(q.value(3).toString().split(QLatin1Char(',')), e.principal,
                                  &error))
                continue; // written by a newer version with areas this one does not know
            e.createdAt = q.value(4).toLongLong();
            e.expiresAt = q.value(5).toLongLong();
            e.createdBy = q.value(6).toString();
            if (!q.value(7).isNull()) {
                auto key =
                    m_database.unseal(q.value(7).toByteArray(), proofKeyContext(e.principal.id));
                if (key)
                    e.proofKey = *key;
                else // it cannot prove then; it still authenticates
                    qCWarning(lcAdmin).noquote()
                        << "the proof key of admin token" << e.principal.name
                        << "cannot be read:" << key.error().message;
            }
            loaded.insert(e.hash, e);
        }
        QWriteLocker lock(&m_lock);
        if (m_generation != seen)
            continue; // a token created or revoked here since the read: read again
        for (auto it = loaded.begin(); it != loaded.end(); ++it) // loaded again: kept
            if (const auto old = m_byHash.constFind(it.key()); old != m_byHash.constEnd())
                it->lastUsedAt = old->lastUsedAt;
        m_byHash = std::move(loaded);
        return {};
    }
    qCWarning(lcAdmin) << "admin tokens changed here during every read; the next announced "
                          "change reads them again";
    return {};
}

QByteArray AdminTokens::rootProof(const QByteArray &nonce, const QString &endpoint) const
{
    return Core::adminProof(m_root, nonce, endpoint);
}

std::optional<QByteArray> AdminTokens::tokenProof(const QString &tokenId, const QByteArray &nonce,
                                                  const QString &endpoint, bool *unprovable) const
{
    *unprovable = false;
    if (Core::adminProofTokenId(Core::adminTokenDigest(m_root)) == tokenId)
        return Core::adminTokenProof(Core::adminTokenProofKey(m_root), nonce, endpoint);
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    QReadLocker lock(&m_lock);
    for (auto it = m_byHash.cbegin(); it != m_byHash.cend(); ++it)
        if ((it->expiresAt == 0 || it->expiresAt > now) &&
            Core::adminProofTokenId(it.key()) == tokenId) {
            if (it->proofKey.isEmpty()) {
                *unprovable = true;
                return std::nullopt;
            }
            return Core::adminTokenProof(it->proofKey, nonce, endpoint);
        }
    return std::nullopt;
}

std::optional<AdminPrincipal> AdminTokens::authenticate(const QString &presented) const
{
    if (presented.isEmpty())
        return std::nullopt;
    if (AdminApi::tokenMatches(m_root, presented)) {
        AdminPrincipal root;
        root.root = true;
        root.name = QStringLiteral("root");
        return root;
    }
    if (!presented.startsWith(TokenPrefix))
        return std::nullopt;
    const QByteArray hash = hashToken(presented);
    QReadLocker lock(&m_lock);
    const auto it = m_byHash.constFind(hash);
    if (it == m_byHash.constEnd())
        return std::nullopt;
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    if (it->expiresAt > 0 && now >= it->expiresAt)
        return std::nullopt;
    it->lastUsedAt = now; // a racy write of a display value; benign
    AdminPrincipal principal = it->principal;
    principal.expiresAt = it->expiresAt;
    return principal;
}

void AdminTokens::create(const AdminPrincipal &creator, const QString &name,
                         const QStringList &permissions, qint64 expiresInMs,
                         const QString &createdBy, std::function<void(Core::Result<Created>)> done)
{
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty() || trimmed.size() > 64 ||
        std::any_of(trimmed.cbegin(), trimmed.cend(), [](QChar c) { return !c.isPrint(); }))
        return done(Core::Error{QStringLiteral("validation-failed"),
                                QStringLiteral("name: 1 to 64 printable characters"), 400});
    if (trimmed == QLatin1String("root"))
        return done(Core::Error{QStringLiteral("validation-failed"),
                                QStringLiteral("name: 'root' is the data directory's token"), 400});
    auto created = std::make_shared<Created>();
    QString error;
    if (!parsePermissions(permissions, created->principal, &error))
        return done(Core::Error{QStringLiteral("validation-failed"), error, 400});
    if (auto refused = beyond(creator, created->principal, QStringLiteral("grant")))
        return done(*refused);
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    {
        QReadLocker lock(&m_lock);
        // Nor beyond its own expiry: a token that ends could otherwise make one that never
        // does, with the same powers, and live on through it.
        if (!creator.root)
            for (const Entry &e : std::as_const(m_byHash))
                if (e.principal.id == creator.id && e.expiresAt > 0 &&
                    (expiresInMs <= 0 || now + expiresInMs > e.expiresAt))
                    return done(Core::Error{
                        QStringLiteral("forbidden"),
                        QStringLiteral("%1 expires at %2: it can create only tokens that expire "
                                       "by then (expiresIn at most %3 seconds)")
                            .arg(creator.describe(),
                                 QDateTime::fromMSecsSinceEpoch(e.expiresAt, Qt::UTC)
                                     .toString(Qt::ISODate))
                            .arg(std::max<qint64>(0, (e.expiresAt - now) / 1000)),
                        403});
        for (const Entry &e : std::as_const(m_byHash))
            if (e.principal.name == trimmed)
                return done(Core::Error{QStringLiteral("admin-token-exists"),
                                        QStringLiteral("an admin token named '%1' exists; revoke "
                                                       "it first or choose another name")
                                            .arg(trimmed),
                                        409});
    }
    created->principal.id = Crypto::Random::uuid();
    created->principal.name = trimmed;
    created->token = TokenPrefix + Crypto::Random::token(32);
    created->createdAt = now;
    created->expiresAt = expiresInMs > 0 ? created->createdAt + expiresInMs : 0;
    auto entry = std::make_shared<Entry>();
    entry->principal = created->principal;
    entry->hash = hashToken(created->token);
    entry->proofKey = Core::adminTokenProofKey(created->token);
    const QByteArray sealedProofKey =
        m_database.seal(entry->proofKey, proofKeyContext(entry->principal.id));
    entry->createdAt = created->createdAt;
    entry->expiresAt = created->expiresAt;
    entry->createdBy = createdBy;
    const QString creatorId = creator.root ? QString() : creator.id;
    m_writer.submit(
        [entry, creatorId, now, sealedProofKey](Core::WriteTransaction &tx) -> Core::Result<void> {
            // The creator still holds its powers when the new token is stored: a revocation
            // (or an expiry) that committed since the check above would otherwise leave a
            // child with them behind.
            if (!creatorId.isEmpty()) {
                Core::Statement &c = tx.stmt("SELECT expires_at FROM admin_tokens WHERE id = ?");
                const bool stored = c.bind(1, creatorId).next();
                if (!c.ok())
                    return Core::WriteTransaction::sqlError(c, "read the creating token");
                if (!stored)
                    return Core::Error{QStringLiteral("unauthorized"),
                                       QStringLiteral("the admin token that asked was revoked"),
                                       401};
                const qint64 expiresAt = c.int64(0);
                c.next(); // done with it
                if (expiresAt > 0 && expiresAt <= now)
                    return Core::Error{QStringLiteral("unauthorized"),
                                       QStringLiteral("the admin token that asked has expired"),
                                       401};
            }
            // Told apart from a write that failed (a 409 for a database that cannot be
            // reached sent the caller looking for a token that is not there).
            Core::Statement &taken = tx.stmt("SELECT 1 FROM admin_tokens WHERE name = ?");
            const bool exists = taken.bind(1, entry->principal.name).next();
            if (!exists && !taken.ok())
                return Core::WriteTransaction::sqlError(taken, "find admin token");
            if (exists) {
                taken.next(); // done with it
                return Core::Error{
                    QStringLiteral("admin-token-exists"),
                    QStringLiteral("an admin token named '%1' exists").arg(entry->principal.name),
                    409};
            }
            QSqlQuery &q = tx.query(
                QStringLiteral("INSERT INTO admin_tokens (id, name, hash, permissions, "
                               "created_at, expires_at, created_by, proof_key) VALUES (?, ?, ?, "
                               "?, ?, ?, ?, ?)"));
            for (const QVariant &v :
                 {QVariant(entry->principal.id), QVariant(entry->principal.name),
                  QVariant(QString::fromLatin1(entry->hash)), // text, not a blob
                  QVariant(entry->principal.permissions().join(QLatin1Char(','))),
                  QVariant(entry->createdAt), QVariant(entry->expiresAt),
                  QVariant(entry->createdBy), QVariant(QString::fromLatin1(sealedProofKey))})
                q.addBindValue(v);
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "store admin token");
            return {};
        },
        [this, entry, created, done = std::move(done)](const Core::Result<void> &r) {
            if (!r)
                return done(r.error());
            QWriteLocker lock(&m_lock);
            m_byHash.insert(entry->hash, *entry);
            ++m_generation;
            lock.unlock();
            done(*created);
        });
}

QJsonArray AdminTokens::list() const
{
    QReadLocker lock(&m_lock);
    QList<const Entry *> entries;
    for (const Entry &e : m_byHash)
        entries.append(&e);
    std::sort(entries.begin(), entries.end(), [](const Entry *a, const Entry *b) {
        return a->createdAt != b->createdAt ? a->createdAt < b->createdAt
                                            : a->principal.name < b->principal.name;
    });
    QJsonArray out;
    for (const Entry *e : std::as_const(entries))
        out.append(e->toJson());
    return out;
}

std::optional<QJsonObject> AdminTokens::find(const QString &id) const
{
    QReadLocker lock(&m_lock);
    for (const Entry &e : m_byHash)
        if (e.principal.id == id)
            return e.toJson();
    return std::nullopt;
}

std::optional<Core::Error> AdminTokens::beyond(const AdminPrincipal &holder,
                                               const AdminPrincipal &other, const QString &verb)
{
    for (const QString &area : areas()) {
        if ((other.writable.contains(area) && !holder.may(area, true)) ||
            (other.readable.contains(area) && !holder.may(area, false)))
            return Core::Error{QStringLiteral("forbidden"),
                               QStringLiteral("%1 cannot %2 %3:%4, which it does not hold itself")
                                   .arg(holder.describe(), verb, area,
                                        other.writable.contains(area) ? QStringLiteral("write")
                                                                      : QStringLiteral("read")),
                               403};
    }
    return std::nullopt;
}

void AdminTokens::revoke(const AdminPrincipal &by, const QString &id,
                         std::function<void(Core::Result<void>)> done)
{
    // Revoking takes a token's powers away from whoever holds it: only a holder of all of
    // them may (as only such a holder could have granted them).
    m_writer.submit(
        [id, by](Core::WriteTransaction &tx) -> Core::Result<void> {
            // Checked again on the row itself: one this instance has not loaded (made by
            // another instance meanwhile, or by a newer version) is held to the same rule.
            if (!by.root) {
                QSqlQuery &read =
                    tx.query(QStringLiteral("SELECT permissions FROM admin_tokens WHERE id = ?"));
                read.addBindValue(id);
                if (!read.exec())
                    return Core::WriteTransaction::sqlError(read, "read admin token");
                if (read.next()) {
                    AdminPrincipal other;
                    QString error;
                    if (!parsePermissions(read.value(0).toString().split(QLatin1Char(',')), other,
                                          &error))
                        return Core::Error{QStringLiteral("forbidden"),
                                           QStringLiteral("%1 cannot revoke admin token %2: its "
                                                          "permissions are unknown to this "
                                                          "version (%3); only the root admin "
                                                          "token may")
                                               .arg(by.describe(), id, error),
                                           403};
                    if (auto refused = beyond(by, other, QStringLiteral("revoke a token with")))
                        return *refused;
                }
            }
            QSqlQuery &q = tx.query(QStringLiteral("DELETE FROM admin_tokens WHERE id = ?"));
            q.addBindValue(id);
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "revoke admin token");
            if (q.numRowsAffected() == 0)
                return Core::Error{QStringLiteral("admin-token-not-found"),
                                   QStringLiteral("no admin token %1").arg(id), 404};
            return {};
        },
        [this, id, done = std::move(done)](const Core::Result<void> &r) {
            if (r) {
                QWriteLocker lock(&m_lock);
                ++m_generation;
                for (auto it = m_byHash.begin(); it != m_byHash.end(); ++it)
                    if (it->principal.id == id) {
                        m_byHash.erase(it);
                        break;
                    }
            }
            done(r);
        });
}

} // namespace Gatehouse::Admin
