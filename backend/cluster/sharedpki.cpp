#include "cluster/sharedpki.h"

#include "cluster/clusterlogging.h"
#include "cluster/tokenauth.h"

#include "core/database.h"
#include "crypto/certificateauthority.h"
#include "crypto/privatekey.h"
#include "platform/platform.h"

#include <QDir>
#include <QFile>
#include <QLoggingCategory>
#include <QSqlError>
#include <QSqlQuery>

#include <optional>

namespace Gatehouse::Cluster {

namespace {

const QString kCa = QStringLiteral("ca");
const QString kServiceAccount = QStringLiteral("service-account");

struct Stored
{
    QByteArray certificatePem; // empty for the service-account key
    QByteArray keyPem;
};

QByteArray contextOf(const QString &name)
{
    return QByteArrayLiteral("cluster_pki:") + name.toUtf8();
}

Result<std::optional<Stored>> read(Core::Database &database, const QString &name)
{
    QSqlQuery q(database.connection());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT certificate, sealed_key FROM cluster_pki WHERE name = ?"));
    q.addBindValue(name);
    if (!q.exec())
        return makeError(QStringLiteral("database-error"),
                         QStringLiteral("cannot read the cluster's %1 from the database: %2")
                             .arg(name, q.lastError().text()));
    if (!q.next())
        return std::optional<Stored>();
    auto key = database.unseal(q.value(1).toString().toLatin1(), contextOf(name));
    if (!key)
        return makeError(
            QStringLiteral("database-key"),
            QStringLiteral("the cluster's %1 key in the database does not open with this "
                           "instance's database key: every instance of a database needs the "
                           "same one (database-key-file, docs/storage.md)")
                .arg(name));
    return std::optional<Stored>(Stored{q.value(0).toString().toLatin1(), *key});
}

// Offers this instance's; one that another instance offered first is kept. Returns the one
// that is kept.
Result<Stored> offer(Core::Database &database, const QString &name, const Stored &stored,
                     const QDateTime &now)
{
    QSqlQuery q(database.connection());
    q.prepare(QStringLiteral("INSERT INTO cluster_pki (name, certificate, sealed_key, created_at) "
                             "VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING"));
    q.addBindValue(name);
    q.addBindValue(stored.certificatePem.isEmpty() ? QStringLiteral("") // not NULL
                                                   : QString::fromLatin1(stored.certificatePem));
    q.addBindValue(QString::fromLatin1(database.seal(stored.keyPem, contextOf(name))));
    q.addBindValue(now.toMSecsSinceEpoch());
    if (!q.exec())
        return makeError(QStringLiteral("database-error"),
                         QStringLiteral("cannot store the cluster's %1 in the database: %2")
                             .arg(name, q.lastError().text()));
    auto kept = read(database, name);
    if (!kept)
        return kept.error();
    if (!*kept)
        return makeError(
            QStringLiteral("database-error"),
            QStringLiteral("the cluster's %1 was stored but cannot be read").arg(name));
    return **kept;
}

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Moves what is at `path` aside (kept, never deleted: it may have issued what someone uses).
Result<void> keepAside(const QString &path, const QString &suffix)
{
    if (!QFile::exists(path))
        return {};
    const QString kept = path + suffix;
    QFile file(path);
    if (!file.rename(kept))
        return makeError(
            QStringLiteral("pki"),
            QStringLiteral("cannot move %1 aside to %2: %3").arg(path, kept, file.errorString()));
    qCWarning(lcCluster).noquote()
        << path << "is not the cluster's in the database, which every instance uses now; kept as"
        << kept;
    return {};
}

Result<Stored> adoptCa(Core::Database &database, const QString &dir, const QDateTime &now)
{
    auto stored = read(database, kCa);
    if (!stored)
        return stored.error();
    if (!*stored) {
        auto local = Crypto::CertificateAuthority::loadOrCreate(
            dir, QStringLiteral("gatehouse-cluster-ca"), now);
        if (!local)
            return local.error();
        auto kept =
            offer(database, kCa, Stored{local->certificatePem(), local->key().toPem()}, now);
        if (!kept)
            return kept.error();
        stored = std::optional<Stored>(*kept);
    }
    // Checked before anything is written: the certificate and its key must match.
    if (auto ca =
            Crypto::CertificateAuthority::fromPem((*stored)->certificatePem, (*stored)->keyPem);
        !ca)
        return makeError(
            ca.error().code,
            QStringLiteral("the cluster's CA in the database: %1").arg(ca.error().message));
    return **stored;
}

Result<Stored> adoptServiceAccountKey(Core::Database &database, const QString &dir,
                                      const QDateTime &now)
{
    auto stored = read(database, kServiceAccount);
    if (!stored)
        return stored.error();
    if (!*stored) {
        auto local = ServiceAccountTokens::loadOrCreateKey(dir);
        if (!local)
            return local.error();
        auto kept = offer(database, kServiceAccount, Stored{{}, local->toPem()}, now);
        if (!kept)
            return kept.error();
        stored = std::optional<Stored>(*kept);
    }
    if (auto key = Crypto::PrivateKey::fromPem((*stored)->keyPem); !key)
        return makeError(key.error().code,
                         QStringLiteral("the cluster's service-account key in the database: %1")
                             .arg(key.error().message));
    return **stored;
}

} // namespace

Core::Migration SharedPki::migration()
{
    return {27,
            QStringLiteral("cluster: the CA and the service-account key, one for every instance"),
            {QStringLiteral("CREATE TABLE cluster_pki (name TEXT PRIMARY KEY, certificate TEXT "
                            "NOT NULL, sealed_key TEXT NOT NULL, created_at BIGINT NOT NULL)")}};
}

Result<void> SharedPki::adopt(Core::Database &database, const QString &pkiDir, const QDateTime &now)
{
    if (auto r = Platform::ensurePrivateDirectory(pkiDir); !r)
        return r.error();
    const QDir dir(pkiDir);
    const QString suffix = QStringLiteral(".replaced-") +
                           now.toUTC().toString(QStringLiteral("yyyyMMdd'T'HHmmsszzz'Z'"));

    auto ca = adoptCa(database, pkiDir, now);
    if (!ca)
        return ca.error();
    const QString caCert = dir.filePath(QStringLiteral("ca.crt"));
    const QString caKey = dir.filePath(QStringLiteral("ca.key"));
    // Both files as the database has them (a key file alone lost or changed is written again).
    const auto localKey = Crypto::PrivateKey::loadFile(caKey);
    const auto storedKey = Crypto::PrivateKey::fromPem(ca->keyPem);
    if (contents(caCert) != ca->certificatePem || !localKey || !storedKey ||
        localKey->toPem() != storedKey->toPem()) {
        for (const QString &path : {caCert, caKey})
            if (auto r = keepAside(path, suffix); !r)
                return r;
        // Key first, as a CA is made: a stop in between leaves one file, reported at start.
        if (auto r = Platform::writePrivateFile(caKey, ca->keyPem); !r)
            return r;
        if (auto r = Platform::writeFileAtomically(caCert, ca->certificatePem, 0644); !r)
            return r;
        qCInfo(lcCluster).noquote() << "the cluster's CA is the database's, written to" << caCert;
    }

    auto sa = adoptServiceAccountKey(database, pkiDir, now);
    if (!sa)
        return sa.error();
    const QString saKey = dir.filePath(QStringLiteral("sa.key"));
    const auto local = Crypto::PrivateKey::loadFile(saKey);
    if (!local || local->toPem() != sa->keyPem) {
        if (auto r = keepAside(saKey, suffix); !r)
            return r;
        if (auto r = Platform::writePrivateFile(saKey, sa->keyPem); !r)
            return r;
        qCInfo(lcCluster).noquote()
            << "the cluster's service-account key is the database's, written to" << saKey;
    }
    return {};
}

} // namespace Gatehouse::Cluster
