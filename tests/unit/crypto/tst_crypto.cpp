#include "crypto/certificateauthority.h"
#include "crypto/digest.h"
#include "crypto/errorcodes.h"
#include "crypto/jws.h"
#include "crypto/password.h"
#include "crypto/privatekey.h"
#include "crypto/random.h"
#include "crypto/sealing.h"
#include "crypto/tls.h"
#include "helpers/filemode.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSslCertificate>
#include <QSslKey>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <optional>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#ifdef Q_OS_UNIX
#include <sys/wait.h>
#include <unistd.h>
#endif

using namespace Gatehouse;
using namespace Gatehouse::Crypto;

Q_DECLARE_METATYPE(Gatehouse::Crypto::KeyType)
Q_DECLARE_METATYPE(Gatehouse::Crypto::CertificateRequest::Usage)

namespace {

QByteArray b64u(const QByteArray &data)
{
    return data.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QByteArray unb64u(const QByteArray &data)
{
    return QByteArray::fromBase64(data, QByteArray::Base64UrlEncoding);
}

QByteArray json(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QList<QByteArray> parts(const QByteArray &compact)
{
    return compact.split('.');
}

// The same token with another (unsigned) header; payload and signature kept.
QByteArray withHeader(const QByteArray &compact, const QByteArray &rawHeader)
{
    const auto p = parts(compact);
    return b64u(rawHeader) + '.' + p[1] + '.' + p[2];
}

QByteArray withHeader(const QByteArray &compact, const QJsonObject &header)
{
    return withHeader(compact, json(header));
}

QJsonObject headerOf(const QByteArray &compact)
{
    return QJsonDocument::fromJson(unb64u(parts(compact)[0])).object();
}

using TestHelpers::fileMode;

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(data) == data.size();
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

using PkeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;

PkeyPtr publicKeyFromPem(const QByteArray &pem)
{
    BIO *bio = BIO_new_mem_buf(pem.constData(), int(pem.size()));
    EVP_PKEY *pkey = PEM_read_bio_PUBKEY(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    return PkeyPtr(pkey, &EVP_PKEY_free);
}

QByteArray pemOf(EVP_PKEY *pkey, const EVP_CIPHER *cipher = nullptr, const char *pass = nullptr)
{
    BIO *bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PKCS8PrivateKey(bio, pkey, cipher, pass, pass ? int(strlen(pass)) : 0, nullptr,
                                  nullptr);
    char *data = nullptr;
    const long len = BIO_get_mem_data(bio, &data);
    QByteArray pem(data, qsizetype(len));
    BIO_free(bio);
    return pem;
}

// Verifies a JWS signature with plain OpenSSL, independently of cjose, to show the
// tokens are standard RFC 7518 signatures (PSS salt = hash length, ES256 = R || S).
bool independentlyVerified(const PrivateKey &key, const QByteArray &compact)
{
    const auto p = parts(compact);
    const QByteArray input = p[0] + '.' + p[1];
    QByteArray signature = unb64u(p[2]);
    const QString alg = headerOf(compact).value(QLatin1String("alg")).toString();
    PkeyPtr pub = publicKeyFromPem(key.publicKeyPem());
    if (!pub)
        return false;

    if (alg == QLatin1String("ES256")) {
        if (signature.size() != 64)
            return false;
        ECDSA_SIG *sig = ECDSA_SIG_new();
        BIGNUM *r =
            BN_bin2bn(reinterpret_cast<const unsigned char *>(signature.constData()), 32, nullptr);
        BIGNUM *s = BN_bin2bn(reinterpret_cast<const unsigned char *>(signature.constData()) + 32,
                              32, nullptr);
        ECDSA_SIG_set0(sig, r, s);
        unsigned char *der = nullptr;
        const int derLen = i2d_ECDSA_SIG(sig, &der);
        signature = QByteArray(reinterpret_cast<const char *>(der), derLen);
        OPENSSL_free(der);
        ECDSA_SIG_free(sig);
    }

    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = nullptr;
    bool ok = EVP_DigestVerifyInit(ctx, &pctx, EVP_sha256(), nullptr, pub.get()) == 1;
    if (ok && alg == QLatin1String("PS256")) {
        ok = EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1 &&
             EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1 &&
             EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, EVP_sha256()) == 1;
    }
    ok = ok && EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char *>(signature.constData()),
                                size_t(signature.size()),
                                reinterpret_cast<const unsigned char *>(input.constData()),
                                size_t(input.size())) == 1;
    EVP_MD_CTX_free(ctx);
    return ok;
}

} // namespace

class TestCrypto : public QObject
{
    Q_OBJECT

private:
    struct ProcessResult
    {
        int exitCode = -1;
        QString output;
    };

    ProcessResult runOpenssl(const QStringList &arguments) const
    {
        QProcess process;
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(m_openssl, arguments);
        if (!process.waitForFinished(60000))
            return {-1, QStringLiteral("openssl timed out")};
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromLocal8Bit(process.readAll())};
    }

    // `openssl verify -CAfile ca.crt [-purpose purpose] cert.pem`
    ProcessResult opensslVerify(const QByteArray &caPem, const QByteArray &certPem,
                                const QString &purpose = {}) const
    {
        QTemporaryDir dir;
        const QString ca = dir.filePath(QStringLiteral("ca.crt"));
        const QString cert = dir.filePath(QStringLiteral("cert.pem"));
        if (!writeFile(ca, caPem) || !writeFile(cert, certPem))
            return {-1, QStringLiteral("cannot write files")};
        QStringList arguments{QStringLiteral("verify"), QStringLiteral("-CAfile"), ca};
        if (!purpose.isEmpty())
            arguments << QStringLiteral("-purpose") << purpose;
        arguments << cert;
        return runOpenssl(arguments);
    }

    QString opensslText(const QByteArray &certPem, const QStringList &options) const
    {
        QTemporaryDir dir;
        const QString cert = dir.filePath(QStringLiteral("cert.pem"));
        writeFile(cert, certPem);
        return runOpenssl(QStringList{QStringLiteral("x509"), QStringLiteral("-in"), cert,
                                      QStringLiteral("-noout")} +
                          options)
            .output;
    }

    const PrivateKey &keyFor(const QString &name) const
    {
        if (name == QLatin1String("rsa"))
            return m_rsa;
        if (name == QLatin1String("rsa2"))
            return m_rsa2;
        return m_ec;
    }

    QString m_openssl;
    PrivateKey m_rsa;
    PrivateKey m_rsa2;
    PrivateKey m_ec;
    std::optional<CertificateAuthority> m_ca;
    std::optional<CertificateAuthority> m_otherCa;

private slots:
    void sealingKeySealsAndRefusesWhatWasChanged()
    {
        // The key file: created 0600 with 32 random bytes, the same key read back.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("database-key"));
        auto key = SealingKey::loadOrCreate(path);
        QVERIFY(key.ok());
        QCOMPARE(fileMode(path), 0600);
        auto again = SealingKey::loadOrCreate(path);
        QVERIFY(again.ok());
        const QByteArray pem = m_rsa.toPem();
        const QByteArray sealed = key->seal(pem, "kid-1");
        QVERIFY(SealingKey::isSealed(sealed));
        QVERIFY(!sealed.contains("PRIVATE KEY"));
        QVERIFY(sealed != key->seal(pem, "kid-1")); // a new nonce each time
        QCOMPARE(again->open(sealed, "kid-1").value(), pem);
        // Another row's id, another key, a changed byte, a cut value: refused, never garbage.
        QVERIFY(!key->open(sealed, "kid-2").ok());
        const SealingKey other = SealingKey::fromBytes(QByteArray(32, 'x'));
        QVERIFY(!other.open(sealed, "kid-1").ok());
        QByteArray changed = sealed;
        changed[changed.size() - 5] = changed[changed.size() - 5] == 'A' ? 'B' : 'A';
        QVERIFY(!key->open(changed, "kid-1").ok());
        QVERIFY(!key->open(sealed.left(20), "kid-1").ok());
        // Written before sealing existed: read as it is (the store seals it then).
        QCOMPARE(key->open(pem, "kid-1").value(), pem);
        // A key file that holds no 32-byte key is refused.
        const QString bad = dir.filePath(QStringLiteral("bad-key"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("c2hvcnQ=\n");
        f.close();
        QVERIFY(!SealingKey::loadOrCreate(bad).ok());
    }

    void initTestCase()
    {
        m_openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
        QVERIFY2(!m_openssl.isEmpty(), "the openssl binary is needed to check certificates");

        auto rsa = PrivateKey::generate(KeyType::Rsa2048);
        QVERIFY2(rsa.ok(), qPrintable(rsa.ok() ? QString() : rsa.error().message));
        m_rsa = *rsa;
        auto rsa2 = PrivateKey::generate(KeyType::Rsa2048);
        QVERIFY(rsa2.ok());
        m_rsa2 = *rsa2;
        auto ec = PrivateKey::generate(KeyType::EcP256);
        QVERIFY(ec.ok());
        m_ec = *ec;

        auto ca = CertificateAuthority::create(QStringLiteral("Gatehouse Test CA"), KeyType::EcP256,
                                               QDateTime::currentDateTimeUtc());
        QVERIFY2(ca.ok(), qPrintable(ca.ok() ? QString() : ca.error().message));
        m_ca = *ca;
        auto other = CertificateAuthority::create(QStringLiteral("Other CA"), KeyType::Rsa2048,
                                                  QDateTime::currentDateTimeUtc());
        QVERIFY(other.ok());
        m_otherCa = *other;
    }

    // ---- Random ------------------------------------------------------------------

    void randomBytes()
    {
        QVERIFY(Random::bytes(0).isEmpty());
        QVERIFY(Random::bytes(-3).isEmpty());
        const QByteArray a = Random::bytes(32);
        const QByteArray b = Random::bytes(32);
        QCOMPARE(a.size(), 32);
        QCOMPARE(b.size(), 32);
        QVERIFY(a != b);
    }

    void randomBytesFromTheBufferNeverRepeat()
    {
        // Draws of up to 64 bytes come from a per-thread buffer of 4 KiB: thousands of draws
        // across many refills are all different, none is the wiped (zero) part of the buffer,
        // and the bytes are evenly spread (each value about 1/256 of 1 MiB).
        QSet<QByteArray> seen;
        QList<qint64> counts(256, 0);
        qint64 total = 0;
        for (int i = 0; i < 20'000; ++i) {
            const int n = QList<int>{1, 10, 16, 31, 64, 65, 100}[i % 7];
            const QByteArray b = Random::bytes(n);
            QCOMPARE(b.size(), n);
            if (n >= 10) {
                QVERIFY2(!seen.contains(b), "a draw repeated");
                seen.insert(b);
                QVERIFY(b != QByteArray(n, '\0'));
            }
            for (const char c : b)
                ++counts[quint8(c)];
            total += n;
        }
        for (int v = 0; v < 256; ++v) {
            const double share = double(counts[v]) * 256 / double(total);
            QVERIFY2(share > 0.9 && share < 1.1,
                     qPrintable(QStringLiteral("byte %1: %2 of the expected").arg(v).arg(share)));
        }
    }

#ifdef Q_OS_UNIX // fork(): Unix only (Windows has no fork, so nothing to test there)
    void forkedChildDrawsOtherBytes()
    {
        // A forked child starts with a copy of its parent's buffer; it must not hand out the
        // bytes the parent hands out next.
        QCOMPARE(Random::bytes(16).size(), 16); // the buffer is filled now
        int fds[2];
        QCOMPARE(pipe(fds), 0);
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            QByteArray drawn;
            for (int i = 0; i < 8; ++i)
                drawn += Random::bytes(32);
            const bool written =
                write(fds[1], drawn.constData(), size_t(drawn.size())) == ssize_t(drawn.size());
            _exit(written ? 0 : 1);
        }
        ::close(fds[1]);
        QByteArray parent;
        for (int i = 0; i < 8; ++i)
            parent += Random::bytes(32);
        QByteArray fromChild(256, '\0');
        qsizetype got = 0;
        while (got < fromChild.size()) {
            const ssize_t r = read(fds[0], fromChild.data() + got, size_t(fromChild.size() - got));
            if (r <= 0)
                break;
            got += r;
        }
        ::close(fds[0]);
        int status = -1;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        QCOMPARE(got, qsizetype(256));
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 8; ++j)
                QVERIFY2(parent.mid(i * 32, 32) != fromChild.mid(j * 32, 32),
                         "parent and child drew the same bytes");
    }
#endif

    void randomToken_data()
    {
        QTest::addColumn<int>("bytes");
        QTest::addColumn<int>("length");
        QTest::newRow("default 32 bytes") << -1 << 43;
        QTest::newRow("16 bytes") << 16 << 22;
        QTest::newRow("1 byte") << 1 << 2;
        QTest::newRow("48 bytes") << 48 << 64;
    }

    void randomToken()
    {
        QFETCH(int, bytes);
        QFETCH(int, length);
        static const QRegularExpression alphabet(QStringLiteral("^[A-Za-z0-9_-]+$"));
        QSet<QString> seen;
        for (int i = 0; i < 50; ++i) {
            const QString token = bytes < 0 ? Random::token() : Random::token(bytes);
            QCOMPARE(token.size(), length);
            QVERIFY2(alphabet.match(token).hasMatch(), qPrintable(token));
            seen.insert(token);
        }
        if (length > 10)
            QCOMPARE(seen.size(), 50);
    }

    void randomIdentifierNeverLooksLikeAnOption()
    {
        // A client_id or key id goes on a command line: one starting with '-' was taken for
        // options ("Unknown options: Y, i, W, ..."). A plain token starts so once in 64
        // draws; 5,000 identifiers would hold about 78 of them.
        static const QRegularExpression alphabet(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_-]*$"));
        int dashes = 0;
        for (int i = 0; i < 5000; ++i) {
            const QString id = Random::identifier(18);
            QCOMPARE(id.size(), 24);
            QVERIFY2(alphabet.match(id).hasMatch(), qPrintable(id));
            dashes += id.contains(QLatin1Char('-')) ? 1 : 0;
        }
        QVERIFY(dashes > 0); // '-' stays in the alphabet, only not in front
        QCOMPARE(Random::identifier(12).size(), 16);
    }

    void sha256MatchesTheStandardVectors()
    {
        // FIPS 180-2 appendix B vectors, then Qt's own SHA-256 on inputs of every length
        // around the 64-byte block size and a token-sized one.
        QCOMPARE(Digest::sha256(QByteArray()).toHex(),
                 QByteArray("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QCOMPARE(Digest::sha256("abc").toHex(),
                 QByteArray("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(Digest::sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").toHex(),
                 QByteArray("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
        QCOMPARE(Digest::sha256(QByteArray(1'000'000, 'a')).toHex(),
                 QByteArray("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
        const QByteArray random = Random::bytes(700);
        for (int n : {1, 31, 55, 56, 63, 64, 65, 119, 128, 420, 700}) {
            const QByteArray in = random.left(n);
            QCOMPARE(Digest::sha256(in), QCryptographicHash::hash(in, QCryptographicHash::Sha256));
        }
    }

    void hmacSha256MatchesTheStandardVectors()
    {
        // RFC 4231 test cases 1, 2, 6 (a key longer than the block) and 7, then Qt's HMAC on
        // keys and messages around the block size, split into parts anywhere.
        QCOMPARE(Digest::hmacSha256(QByteArray(20, '\x0b'), {"Hi There"}).toHex(),
                 QByteArray("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"));
        QCOMPARE(Digest::hmacSha256("Jefe", {"what do ya want ", "", "for nothing?"}).toHex(),
                 QByteArray("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"));
        QCOMPARE(Digest::hmacSha256(QByteArray(131, '\xaa'),
                                    {"Test Using Larger Than Block-Size Key - Hash Key First"})
                     .toHex(),
                 QByteArray("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"));
        QCOMPARE(Digest::hmacSha256(QByteArray(131, '\xaa'),
                                    {"This is a test using a larger than block-size key and a "
                                     "larger than block-size data. The key needs to be hashed "
                                     "before being used by the HMAC algorithm."})
                     .toHex(),
                 QByteArray("9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"));
        const QByteArray random = Random::bytes(700);
        for (int k : {0, 1, 32, 63, 64, 65, 200})
            for (int n : {0, 1, 55, 64, 65, 420, 700}) {
                const QByteArray key = random.right(k);
                const QByteArray msg = random.left(n);
                const QByteArray qt =
                    QMessageAuthenticationCode::hash(msg, key, QCryptographicHash::Sha256);
                QCOMPARE(Digest::hmacSha256(key, {msg}), qt);
                QCOMPARE(Digest::hmacSha256(key, {msg.left(n / 3), msg.mid(n / 3)}), qt);
            }
    }

    void randomUuid()
    {
        static const QRegularExpression v4(QStringLiteral(
            "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"));
        QSet<QString> seen;
        for (int i = 0; i < 200; ++i) {
            const QString uuid = Random::uuid();
            QVERIFY2(v4.match(uuid).hasMatch(), qPrintable(uuid));
            seen.insert(uuid);
        }
        QCOMPARE(seen.size(), 200);
    }

    // ---- Keys --------------------------------------------------------------------

    void keyGenerate_data()
    {
        QTest::addColumn<KeyType>("type");
        QTest::addColumn<QString>("alg");
        QTest::addColumn<int>("bits");
        QTest::newRow("RSA 2048") << KeyType::Rsa2048 << QStringLiteral("RS256") << 2048;
        QTest::newRow("RSA 3072") << KeyType::Rsa3072 << QStringLiteral("RS256") << 3072;
        QTest::newRow("EC P-256") << KeyType::EcP256 << QStringLiteral("ES256") << 256;
    }

    void keyGenerate()
    {
        QFETCH(KeyType, type);
        QFETCH(QString, alg);
        QFETCH(int, bits);
        auto key = PrivateKey::generate(type);
        QVERIFY(key.ok());
        QVERIFY(!key->isNull());
        QCOMPARE(key->type(), type);
        QCOMPARE(key->defaultJwsAlg(), alg);
        QVERIFY(key->toPem().startsWith("-----BEGIN PRIVATE KEY-----"));
        QVERIFY(key->publicKeyPem().startsWith("-----BEGIN PUBLIC KEY-----"));
        QVERIFY(!key->publicKeyPem().contains("PRIVATE"));
        PkeyPtr pub = publicKeyFromPem(key->publicKeyPem());
        QVERIFY(pub);
        QCOMPARE(EVP_PKEY_get_bits(pub.get()), bits);
        QCOMPARE(key->thumbprint().size(), 43);
    }

    void keyNull()
    {
        const PrivateKey key;
        QVERIFY(key.isNull());
        QVERIFY(key.toPem().isEmpty());
        QVERIFY(key.thumbprint().isEmpty());
        QTemporaryDir dir;
        QVERIFY(!key.saveFile(dir.filePath(QStringLiteral("null.key"))).ok());
        QVERIFY(!Jws::sign(key, QStringLiteral("ES256"), {}, "x").ok());
        QVERIFY(Jws::publicJwk(key, QStringLiteral("k"), QStringLiteral("ES256")).isEmpty());
    }

    void keyPemRoundTrip_data()
    {
        QTest::addColumn<QString>("key");
        QTest::newRow("RSA") << QStringLiteral("rsa");
        QTest::newRow("EC") << QStringLiteral("ec");
    }

    void keyPemRoundTrip()
    {
        QFETCH(QString, key);
        const PrivateKey &original = keyFor(key);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub.key"));
        const auto saved = original.saveFile(path);
        QVERIFY2(saved.ok(), qPrintable(saved.ok() ? QString() : saved.error().message));
        QCOMPARE(fileMode(path), 0600);
        QVERIFY(readFile(path).startsWith("-----BEGIN PRIVATE KEY-----"));
        // No temporary file left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("sub.key")});

        auto loaded = PrivateKey::loadFile(path);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->type(), original.type());
        QCOMPARE(loaded->publicKeyPem(), original.publicKeyPem());
        QCOMPARE(loaded->thumbprint(), original.thumbprint());

        // A token signed by the loaded key verifies with the original's public JWK.
        const QString alg = original.defaultJwsAlg();
        auto token = Jws::sign(*loaded, alg, {}, "round trip");
        QVERIFY(token.ok());
        QVERIFY(Jws::verify(*token, Jws::publicJwk(original, {}, alg)).ok());

        // Overwriting keeps the mode (the file is replaced, not rewritten in place).
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner |
                                                QFile::ReadGroup | QFile::ReadOther));
        QVERIFY(m_ec.saveFile(path).ok());
        QCOMPARE(fileMode(path), 0600);
    }

    void keyInvalidPem_data()
    {
        QTest::addColumn<QByteArray>("pem");
        QTest::addColumn<QString>("code");
        const QString invalid = QString::fromLatin1(ErrorCode::KeyInvalid);
        const QString unsupported = QString::fromLatin1(ErrorCode::KeyUnsupported);
        QTest::newRow("empty") << QByteArray() << invalid;
        QTest::newRow("garbage") << QByteArray("not a key at all") << invalid;
        QTest::newRow("binary") << Random::bytes(300) << invalid;
        QTest::newRow("bad base64 body")
            << QByteArray("-----BEGIN PRIVATE KEY-----\nAAAA!!!!\n-----END PRIVATE KEY-----\n")
            << invalid;
        QTest::newRow("truncated")
            << m_ec.toPem().left(m_ec.toPem().size() / 2) + "\n-----END PRIVATE KEY-----\n"
            << invalid;
        QTest::newRow("public key only") << m_ec.publicKeyPem() << invalid;
        QTest::newRow("oversized") << QByteArray(200 * 1024, 'A') << invalid;

        EVP_PKEY *ec = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
        QTest::newRow("encrypted (no passphrase prompt)")
            << pemOf(ec, EVP_aes_256_cbc(), "secret") << invalid;
        EVP_PKEY_free(ec);
        EVP_PKEY *rsa1024 = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t(1024));
        QTest::newRow("RSA 1024") << pemOf(rsa1024) << unsupported;
        EVP_PKEY_free(rsa1024);
        EVP_PKEY *p384 = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-384");
        QTest::newRow("EC P-384") << pemOf(p384) << unsupported;
        EVP_PKEY_free(p384);
        EVP_PKEY *ed = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
        QTest::newRow("Ed25519") << pemOf(ed) << unsupported;
        EVP_PKEY_free(ed);
    }

    void keyInvalidPem()
    {
        QFETCH(QByteArray, pem);
        QFETCH(QString, code);
        const auto key = PrivateKey::fromPem(pem);
        QVERIFY(!key.ok());
        QCOMPARE(key.error().code, code);
    }

    void keyLoadMissingFile()
    {
        QTemporaryDir dir;
        const auto key = PrivateKey::loadFile(dir.filePath(QStringLiteral("missing.key")));
        QVERIFY(!key.ok());
        QCOMPARE(key.error().code, QString::fromLatin1(ErrorCode::Io));
    }

    void keyThumbprint_data()
    {
        keyPemRoundTrip_data();
    }

    void keyThumbprint()
    {
        QFETCH(QString, key);
        const PrivateKey &k = keyFor(key);
        // RFC 7638 section 3: SHA-256 over the required members in lexicographic order.
        const QJsonObject jwk = Jws::publicJwk(k, QStringLiteral("ignored"), {});
        QJsonObject required;
        for (const QString &member :
             k.isRsa() ? QStringList{"e", "kty", "n"} : QStringList{"crv", "kty", "x", "y"})
            required.insert(member, jwk.value(member));
        const QByteArray expected =
            b64u(QCryptographicHash::hash(json(required), QCryptographicHash::Sha256));
        QCOMPARE(k.thumbprint(), QString::fromLatin1(expected));
        QVERIFY(k.thumbprint() != m_rsa2.thumbprint());
    }

    // RFC 7638 section 3.1's example, a known answer: the thumbprint of a public JWK ignores
    // its kid, alg and use (the same key under another kid is the same key), and is empty for
    // a JWK without its required members.
    void jwkThumbprintOfPublicJwk()
    {
        QJsonObject jwk{
            {"kty", "RSA"},
            {"n",
             "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6"
             "tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v"
             "-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08q"
             "NLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8aw"
             "apJzKnqDKgw"},
            {"e", "AQAB"},
            {"alg", "RS256"},
            {"kid", "2011-04-29"}};
        const QString expected = QStringLiteral("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
        QCOMPARE(jwkThumbprint(jwk), expected);
        jwk.insert(QStringLiteral("kid"), QStringLiteral("renamed"));
        jwk.insert(QStringLiteral("use"), QStringLiteral("sig"));
        QCOMPARE(jwkThumbprint(jwk), expected);
        jwk.insert(QStringLiteral("e"), QStringLiteral("AQAC"));
        QVERIFY(jwkThumbprint(jwk) != expected);
        jwk.remove(QStringLiteral("e"));
        QVERIFY(jwkThumbprint(jwk).isEmpty());
        QVERIFY(jwkThumbprint(QJsonObject{{"kty", "oct"}, {"k", "c2VjcmV0"}}).isEmpty());
        QVERIFY(jwkThumbprint(QJsonObject{{"kty", "EC"}, {"crv", "P-256"}, {"x", 1}, {"y", "y"}})
                    .isEmpty());
        // A key's own thumbprint is its public JWK's.
        QCOMPARE(jwkThumbprint(Jws::publicJwk(m_rsa2, QStringLiteral("k"), {})),
                 m_rsa2.thumbprint());
    }

    // ---- JWS ---------------------------------------------------------------------

    void jwsRoundTrip_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("alg");
        QTest::addColumn<QByteArray>("payload");
        const QByteArray claims = R"({"sub":"alice","aud":"gatehouse","exp":1999999999})";
        QTest::newRow("RS256 RSA-2048") << "rsa"
                                        << "RS256" << claims;
        QTest::newRow("PS256 RSA-2048") << "rsa"
                                        << "PS256" << claims;
        QTest::newRow("ES256 EC P-256") << "ec"
                                        << "ES256" << claims;
        QTest::newRow("ES256 binary payload") << "ec"
                                              << "ES256" << QByteArray("\x00\xff\x01.\n", 5);
        QTest::newRow("ES256 empty payload") << "ec"
                                             << "ES256" << QByteArray();
        QTest::newRow("RS256 large payload") << "rsa"
                                             << "RS256" << QByteArray(100000, 'z');
    }

    void jwsRoundTrip()
    {
        QFETCH(QString, key);
        QFETCH(QString, alg);
        QFETCH(QByteArray, payload);
        const PrivateKey &k = keyFor(key);
        const QString kid = k.thumbprint();
        const QJsonObject header{{"kid", kid},
                                 {"typ", "at+jwt"},
                                 {"n", 5},
                                 {"ext", QJsonObject{{"a", QJsonArray{1, true, "x"}}}}};

        auto token = Jws::sign(k, alg, header, payload);
        QVERIFY2(token.ok(), qPrintable(token.ok() ? QString() : token.error().message));
        QCOMPARE(token->count('.'), 2);
        QVERIFY(independentlyVerified(k, *token));

        auto verified = Jws::verify(*token, Jws::publicJwk(k, kid, alg));
        QVERIFY2(verified.ok(), qPrintable(verified.ok() ? QString() : verified.error().message));
        QCOMPARE(verified->payload, payload);
        QCOMPARE(verified->alg, alg);
        QCOMPARE(verified->kid, kid);
        QJsonObject expectedHeader = header;
        expectedHeader.insert("alg", alg);
        QCOMPARE(verified->header, expectedHeader);

        // A JWK without alg/use is accepted too (the token alg must suit the kty).
        QJsonObject bare = Jws::publicJwk(k, {}, alg);
        bare.remove("alg");
        bare.remove("use");
        QVERIFY(Jws::verify(*token, bare).ok());
    }

    void jwsJwksSelectsByKid()
    {
        const QJsonObject set = Jws::jwks({Jws::publicJwk(m_ec, "ec-1", "ES256"),
                                           Jws::publicJwk(m_rsa, "rsa-1", "RS256"),
                                           Jws::publicJwk(m_rsa2, "rsa-2", "RS256")});
        QCOMPARE(set.value("keys").toArray().size(), 3);

        for (const auto &[key, kid, alg] :
             {std::tuple{&m_rsa, "rsa-1", "RS256"}, std::tuple{&m_rsa2, "rsa-2", "RS256"},
              std::tuple{&m_ec, "ec-1", "ES256"}}) {
            auto token = Jws::sign(*key, alg, {{"kid", kid}}, "hello");
            QVERIFY(token.ok());
            auto verified = Jws::verifyWithJwks(*token, set);
            QVERIFY2(verified.ok(),
                     qPrintable(verified.ok() ? QString() : verified.error().message));
            QCOMPARE(verified->kid, QString::fromLatin1(kid));
            QCOMPARE(verified->payload, QByteArray("hello"));
        }

        // Signed by rsa but claiming rsa-2's kid: the selected key does not verify.
        auto wrongKid = Jws::sign(m_rsa, "RS256", {{"kid", "rsa-2"}}, "hello");
        QVERIFY(wrongKid.ok());
        auto refused = Jws::verifyWithJwks(*wrongKid, set);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, QString::fromLatin1(ErrorCode::JwsBadSignature));
    }

    void jwsJwksRefusals_data()
    {
        QTest::addColumn<QByteArray>("token");
        QTest::addColumn<QJsonObject>("jwks");
        QTest::addColumn<QString>("code");
        const QJsonObject rsa1 = Jws::publicJwk(m_rsa, "rsa-1", "RS256");
        const QJsonObject rsa2 = Jws::publicJwk(m_rsa2, "rsa-2", "RS256");
        const QByteArray withKid = *Jws::sign(m_rsa, "RS256", {{"kid", "rsa-1"}}, "x");
        const QByteArray noKid = *Jws::sign(m_rsa, "RS256", {}, "x");
        const QByteArray unknownKid = *Jws::sign(m_rsa, "RS256", {{"kid", "nope"}}, "x");

        QTest::newRow("unknown kid") << unknownKid << Jws::jwks({rsa1, rsa2})
                                     << QString::fromLatin1(ErrorCode::JwksUnknownKid);
        QTest::newRow("no kid, two keys")
            << noKid << Jws::jwks({rsa1, rsa2}) << QString::fromLatin1(ErrorCode::JwksKidRequired);
        QTest::newRow("duplicate kid")
            << withKid << Jws::jwks({rsa1, Jws::publicJwk(m_rsa2, "rsa-1", "RS256")})
            << QString::fromLatin1(ErrorCode::JwksAmbiguousKid);
        QTest::newRow("no keys member") << withKid << QJsonObject{{"kid", "rsa-1"}}
                                        << QString::fromLatin1(ErrorCode::JwksInvalid);
        QTest::newRow("empty set")
            << withKid << Jws::jwks({}) << QString::fromLatin1(ErrorCode::JwksUnknownKid);
        QTest::newRow("wrong single key, no kid")
            << noKid << Jws::jwks({rsa2}) << QString::fromLatin1(ErrorCode::JwsBadSignature);
    }

    void jwsJwksRefusals()
    {
        QFETCH(QByteArray, token);
        QFETCH(QJsonObject, jwks);
        QFETCH(QString, code);
        const auto verified = Jws::verifyWithJwks(token, jwks);
        QVERIFY(!verified.ok());
        QCOMPARE(verified.error().code, code);
    }

    void jwsJwksSingleKeyWithoutKid()
    {
        auto token = Jws::sign(m_ec, "ES256", {}, "only one");
        QVERIFY(token.ok());
        auto verified =
            Jws::verifyWithJwks(*token, Jws::jwks({Jws::publicJwk(m_ec, "ec", "ES256")}));
        QVERIFY(verified.ok());
        QVERIFY(verified->kid.isEmpty());
        QCOMPARE(verified->payload, QByteArray("only one"));
    }

    void jwsRefusesTampering_data()
    {
        QTest::addColumn<QByteArray>("token");
        QTest::addColumn<QJsonObject>("jwk");
        QTest::addColumn<QString>("code"); // empty: any error

        const QJsonObject rsaJwk = Jws::publicJwk(m_rsa, "rsa", "RS256");
        QJsonObject rsaJwkNoAlg = rsaJwk;
        rsaJwkNoAlg.remove("alg");
        const QJsonObject ecJwk = Jws::publicJwk(m_ec, "ec", "ES256");
        const QByteArray rs = *Jws::sign(m_rsa, "RS256", {{"kid", "rsa"}}, R"({"sub":"alice"})");
        const QByteArray es = *Jws::sign(m_ec, "ES256", {{"kid", "ec"}}, R"({"sub":"alice"})");
        const auto rsParts = parts(rs);
        const auto esParts = parts(es);
        const QString badSignature = QString::fromLatin1(ErrorCode::JwsBadSignature);

        QTest::newRow("untampered control") << rs << rsaJwk << QStringLiteral("ok");

        QTest::newRow("tampered payload RS256")
            << rsParts[0] + '.' + b64u(R"({"sub":"mallory"})") + '.' + rsParts[2] << rsaJwk
            << badSignature;
        QTest::newRow("tampered payload ES256")
            << esParts[0] + '.' + b64u(R"({"sub":"mallory"})") + '.' + esParts[2] << ecJwk
            << badSignature;
        QTest::newRow("tampered header (typ added)")
            << withHeader(rs, QJsonObject{{"alg", "RS256"}, {"kid", "rsa"}, {"typ", "JWT"}})
            << rsaJwk << badSignature;
        QTest::newRow("tampered header ES256")
            << withHeader(es, QJsonObject{{"alg", "ES256"}, {"kid", "ec2"}}) << ecJwk
            << badSignature;
        QTest::newRow("truncated signature (4 chars)")
            << rs.left(rs.size() - 4) << rsaJwk << badSignature;
        QTest::newRow("truncated signature (1 char)") << rs.chopped(1) << rsaJwk << QString();
        QTest::newRow("truncated ES256 signature")
            << es.left(es.size() - 4) << ecJwk << badSignature;
        QTest::newRow("empty signature")
            << rsParts[0] + '.' + rsParts[1] + '.' << rsaJwk << QString();
        QByteArray flipped = unb64u(esParts[2]);
        flipped[10] = char(flipped[10] ^ 0x01);
        QTest::newRow("flipped signature bit ES256")
            << esParts[0] + '.' + esParts[1] + '.' + b64u(flipped) << ecJwk << badSignature;

        // alg substitutions on the same signature
        QTest::newRow("RS256 -> PS256, JWK without alg")
            << withHeader(rs, QJsonObject{{"alg", "PS256"}, {"kid", "rsa"}}) << rsaJwkNoAlg
            << badSignature;
        QTest::newRow("RS256 -> PS256, JWK bound to RS256")
            << withHeader(rs, QJsonObject{{"alg", "PS256"}, {"kid", "rsa"}}) << rsaJwk
            << QString::fromLatin1(ErrorCode::JwsAlgKeyMismatch);
        QTest::newRow("RS256 -> ES256 with an RSA key")
            << withHeader(rs, QJsonObject{{"alg", "ES256"}, {"kid", "rsa"}}) << rsaJwkNoAlg
            << QString::fromLatin1(ErrorCode::JwsAlgKeyMismatch);
        QTest::newRow("ES256 token against an RSA key")
            << es << rsaJwkNoAlg << QString::fromLatin1(ErrorCode::JwsAlgKeyMismatch);
        QTest::newRow("RS256 -> RS512")
            << withHeader(rs, QJsonObject{{"alg", "RS512"}}) << rsaJwkNoAlg
            << QString::fromLatin1(ErrorCode::JwsAlgUnsupported);

        // alg none, with and without the signature
        QTest::newRow("alg none, empty signature")
            << b64u(R"({"alg":"none"})") + '.' + rsParts[1] + '.' << rsaJwk
            << QString::fromLatin1(ErrorCode::JwsAlgNone);
        QTest::newRow("alg nOnE, empty signature")
            << b64u(R"({"alg":"nOnE"})") + '.' + rsParts[1] + '.' << rsaJwk
            << QString::fromLatin1(ErrorCode::JwsAlgNone);
        QTest::newRow("alg none, original signature")
            << withHeader(rs, QByteArray(R"({"alg":"none","kid":"rsa"})")) << rsaJwk
            << QString::fromLatin1(ErrorCode::JwsAlgNone);
        QTest::newRow("alg missing") << withHeader(rs, QByteArray(R"({"kid":"rsa"})")) << rsaJwk
                                     << QString::fromLatin1(ErrorCode::JwsAlgMissing);
        QTest::newRow("alg not a string") << withHeader(rs, QByteArray(R"({"alg":256})")) << rsaJwk
                                          << QString::fromLatin1(ErrorCode::JwsAlgMissing);

        // Parser differential: two alg members. Whatever each parser keeps, refuse.
        QTest::newRow("duplicate alg members")
            << withHeader(rs, QByteArray(R"({"alg":"RS256","kid":"rsa","alg":"HS256"})"))
            << rsaJwkNoAlg << QString();
        QTest::newRow("duplicate alg members, reversed")
            << withHeader(rs, QByteArray(R"({"alg":"HS256","kid":"rsa","alg":"RS256"})"))
            << rsaJwkNoAlg << QString();

        QTest::newRow("crit header")
            << withHeader(rs,
                          QJsonObject{{"alg", "RS256"}, {"crit", QJsonArray{"exp"}}, {"exp", 1}})
            << rsaJwk << QString::fromLatin1(ErrorCode::JwsCritUnsupported);

        // Keys that must never be used
        QTest::newRow("symmetric JWK")
            << rs
            << QJsonObject{{"kty", "oct"}, {"k", QString::fromLatin1(b64u(QByteArray(32, 'k')))}}
            << QString::fromLatin1(ErrorCode::JwkInvalid);
        QJsonObject sigUseEnc = rsaJwk;
        sigUseEnc["use"] = "enc";
        QTest::newRow("JWK use enc")
            << rs << sigUseEnc << QString::fromLatin1(ErrorCode::JwkInvalid);
        QJsonObject shortX = ecJwk;
        shortX["x"] = QString::fromLatin1(b64u(QByteArray(31, 'x')));
        QTest::newRow("EC JWK with short x")
            << es << shortX << QString::fromLatin1(ErrorCode::JwkInvalid);
        QJsonObject p384 = ecJwk;
        p384["crv"] = "P-384";
        QTest::newRow("EC JWK on P-384")
            << es << p384 << QString::fromLatin1(ErrorCode::JwkInvalid);
        QTest::newRow("empty JWK")
            << rs << QJsonObject() << QString::fromLatin1(ErrorCode::JwkInvalid);
        QTest::newRow("other RSA key")
            << rs << Jws::publicJwk(m_rsa2, "rsa", "RS256") << badSignature;
    }

    void jwsRefusesTampering()
    {
        QFETCH(QByteArray, token);
        QFETCH(QJsonObject, jwk);
        QFETCH(QString, code);
        const auto verified = Jws::verify(token, jwk);
        if (code == QLatin1String("ok")) {
            QVERIFY(verified.ok());
            return;
        }
        QVERIFY2(!verified.ok(), "a tampered or forged token was accepted");
        QVERIFY(!verified.error().code.isEmpty());
        QCOMPARE(verified.error().httpStatus, 401);
        if (!code.isEmpty())
            QCOMPARE(verified.error().code, code);
    }

    void jwsRefusesHs256WithPublicKey()
    {
        // The classic key-confusion forgery: HMAC-SHA256 keyed with the RSA public key,
        // as a verifier that trusted the header's alg would compute it.
        const QByteArray header = b64u(R"({"alg":"HS256","kid":"rsa","typ":"JWT"})");
        const QByteArray payload = b64u(R"({"sub":"admin"})");
        const QByteArray input = header + '.' + payload;

        for (const QByteArray &secret :
             {m_rsa.publicKeyPem(), QByteArray(json(Jws::publicJwk(m_rsa, "rsa", "RS256")))}) {
            unsigned char mac[EVP_MAX_MD_SIZE];
            unsigned int macLen = 0;
            QVERIFY(HMAC(EVP_sha256(), secret.constData(), int(secret.size()),
                         reinterpret_cast<const unsigned char *>(input.constData()),
                         size_t(input.size()), mac, &macLen));
            const QByteArray forged =
                input + '.' + b64u(QByteArray(reinterpret_cast<const char *>(mac), int(macLen)));

            QJsonObject jwkNoAlg = Jws::publicJwk(m_rsa, "rsa", "RS256");
            jwkNoAlg.remove("alg");
            for (const QJsonObject &jwk :
                 {Jws::publicJwk(m_rsa, "rsa", "RS256"), jwkNoAlg,
                  QJsonObject{{"kty", "oct"}, {"k", QString::fromLatin1(b64u(secret))}}}) {
                const auto verified = Jws::verify(forged, jwk);
                QVERIFY2(!verified.ok(), "HS256 forgery accepted");
                QCOMPARE(verified.error().code, QString::fromLatin1(ErrorCode::JwsAlgHmac));
            }
            const auto viaSet = Jws::verifyWithJwks(forged, Jws::jwks({jwkNoAlg}));
            QVERIFY(!viaSet.ok());
            QCOMPARE(viaSet.error().code, QString::fromLatin1(ErrorCode::JwsAlgHmac));
        }
    }

    void jwsSignRefusals_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("alg");
        QTest::addColumn<QJsonObject>("header");
        QTest::addColumn<QString>("code");
        const QString mismatch = QString::fromLatin1(ErrorCode::JwsAlgKeyMismatch);
        const QString unsupported = QString::fromLatin1(ErrorCode::JwsAlgUnsupported);
        QTest::newRow("EC key, RS256") << "ec"
                                       << "RS256" << QJsonObject() << mismatch;
        QTest::newRow("EC key, PS256") << "ec"
                                       << "PS256" << QJsonObject() << mismatch;
        QTest::newRow("RSA key, ES256") << "rsa"
                                        << "ES256" << QJsonObject() << mismatch;
        QTest::newRow("HS256") << "rsa"
                               << "HS256" << QJsonObject() << unsupported;
        QTest::newRow("none") << "ec"
                              << "none" << QJsonObject() << unsupported;
        QTest::newRow("empty alg") << "ec"
                                   << "" << QJsonObject() << unsupported;
        QTest::newRow("header alg differs") << "rsa"
                                            << "RS256" << QJsonObject{{"alg", "PS256"}} << mismatch;
        QTest::newRow("crit") << "rsa"
                              << "RS256" << QJsonObject{{"crit", QJsonArray{"x"}}}
                              << QString::fromLatin1(ErrorCode::JwsCritUnsupported);
    }

    void jwsSignRefusals()
    {
        QFETCH(QString, key);
        QFETCH(QString, alg);
        QFETCH(QJsonObject, header);
        QFETCH(QString, code);
        const auto token = Jws::sign(keyFor(key), alg, header, "payload");
        QVERIFY(!token.ok());
        QCOMPARE(token.error().code, code);
    }

    void jwsGarbage_data()
    {
        QTest::addColumn<QByteArray>("input");
        const QByteArray sig = b64u(QByteArray(256, 's'));
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("dot") << QByteArray(".");
        QTest::newRow("two dots") << QByteArray("..");
        QTest::newRow("three parts of nothing") << QByteArray("a.b.c");
        QTest::newRow("two parts") << QByteArray("eyJhbGciOiJSUzI1NiJ9.e30");
        QTest::newRow("four parts") << QByteArray("eyJhbGciOiJSUzI1NiJ9.e30.c2ln.c2ln");
        QTest::newRow("five parts (JWE)") << QByteArray("eyJhbGciOiJSU0EtT0FFUCJ9.a.b.c.d");
        QTest::newRow("symbols") << QByteArray("!!!.@@@.###");
        QTest::newRow("padding") << b64u(R"({"alg":"RS256"})") + "==.e30." + sig;
        QTest::newRow("standard base64 alphabet")
            << QByteArray("eyJhbGciOiJSUzI1NiJ9.e30+/.") + sig;
        QTest::newRow("header not JSON") << b64u("hello") + ".e30." + sig;
        QTest::newRow("header JSON array") << b64u(R"(["alg","RS256"])") + ".e30." + sig;
        QTest::newRow("header empty object") << b64u("{}") + ".e30." + sig;
        QTest::newRow("header trailing garbage") << b64u(R"({"alg":"RS256"}x)") + ".e30." + sig;
        QTest::newRow("embedded NUL") << QByteArray("eyJhbGciOiJSUzI1NiJ9\0.e30.", 26) + sig;
        QTest::newRow("random binary") << Random::bytes(10000);
        QTest::newRow("too large")
            << QByteArray("eyJhbGciOiJSUzI1NiJ9.") + QByteArray(5 * 1024 * 1024, 'A') + '.' + sig;
        QTest::newRow("kid not a string") << b64u(R"({"alg":"RS256","kid":7})") + ".e30." + sig;
    }

    void jwsGarbage()
    {
        QFETCH(QByteArray, input);
        const QJsonObject jwk = Jws::publicJwk(m_rsa, "rsa", "RS256");
        const auto verified = Jws::verify(input, jwk);
        QVERIFY(!verified.ok());
        QVERIFY(!verified.error().code.isEmpty());
        QVERIFY(!Jws::verifyWithJwks(input, Jws::jwks({jwk})).ok());
        // decodeUnverified must not crash either (some inputs decode, most do not).
        (void)Jws::decodeUnverified(input);
    }

    void jwsPublicJwkHasNoPrivateMembers_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("alg");
        QTest::addColumn<QStringList>("members");
        QTest::newRow("RSA") << "rsa"
                             << "RS256" << QStringList{"alg", "e", "kid", "kty", "n", "use"};
        QTest::newRow("RSA PS256") << "rsa"
                                   << "PS256" << QStringList{"alg", "e", "kid", "kty", "n", "use"};
        QTest::newRow("EC") << "ec"
                            << "ES256" << QStringList{"alg", "crv", "kid", "kty", "use", "x", "y"};
    }

    void jwsPublicJwkHasNoPrivateMembers()
    {
        QFETCH(QString, key);
        QFETCH(QString, alg);
        QFETCH(QStringList, members);
        const PrivateKey &k = keyFor(key);
        const QJsonObject jwk = Jws::publicJwk(k, "kid-1", alg);
        QCOMPARE(jwk.keys(), members);
        for (const char *priv : {"d", "p", "q", "dp", "dq", "qi", "k", "oth"})
            QVERIFY2(!jwk.contains(QLatin1String(priv)), priv);
        QCOMPARE(jwk.value("kid").toString(), QStringLiteral("kid-1"));
        QCOMPARE(jwk.value("alg").toString(), alg);
        QCOMPARE(jwk.value("use").toString(), QStringLiteral("sig"));
        if (k.isRsa()) {
            QCOMPARE(unb64u(jwk.value("n").toString().toLatin1()).size(), 256);
            QCOMPARE(jwk.value("e").toString(), QStringLiteral("AQAB"));
        } else {
            QCOMPARE(jwk.value("crv").toString(), QStringLiteral("P-256"));
            QCOMPARE(unb64u(jwk.value("x").toString().toLatin1()).size(), 32);
            QCOMPARE(unb64u(jwk.value("y").toString().toLatin1()).size(), 32);
        }
        // Serialized, no private material either.
        const QByteArray text = json(Jws::jwks({jwk}));
        QVERIFY(!text.contains("\"d\""));
    }

    void jwsPublicJwkDefaultsAndMismatch()
    {
        QCOMPARE(Jws::publicJwk(m_ec, {}, {}).value("alg").toString(), QStringLiteral("ES256"));
        QVERIFY(!Jws::publicJwk(m_ec, {}, {}).contains("kid"));
        QCOMPARE(Jws::publicJwk(m_rsa, {}, {}).value("alg").toString(), QStringLiteral("RS256"));
        QVERIFY(Jws::publicJwk(m_ec, "k", "RS256").isEmpty());
        QVERIFY(Jws::publicJwk(m_rsa, "k", "HS256").isEmpty());
    }

    void jwsDecodeUnverified()
    {
        auto token = Jws::sign(m_ec, "ES256", {{"kid", "ec"}}, R"({"sub":"alice"})");
        QVERIFY(token.ok());
        auto decoded = Jws::decodeUnverified(*token);
        QVERIFY(decoded.ok());
        QCOMPARE(decoded->value("header").toObject(),
                 (QJsonObject{{"alg", "ES256"}, {"kid", "ec"}}));
        QCOMPARE(decoded->value("payload").toObject(), (QJsonObject{{"sub", "alice"}}));

        auto text = Jws::sign(m_ec, "ES256", {}, "plain text");
        QVERIFY(text.ok());
        QCOMPARE(Jws::decodeUnverified(*text)->value("payload").toString(),
                 QStringLiteral("plain text"));

        // Decoding is no verification: a forged token still decodes, but never verifies.
        const QByteArray forged = b64u(R"({"alg":"none"})") + '.' + b64u(R"({"sub":"root"})") + '.';
        QVERIFY(Jws::decodeUnverified(forged).ok());
        QVERIFY(!Jws::verify(forged, Jws::publicJwk(m_ec, "ec", "ES256")).ok());
        QVERIFY(!Jws::decodeUnverified("garbage").ok());
    }

    // ---- Certificate authority ----------------------------------------------------

    void caCertificate()
    {
        const QString text =
            opensslText(m_ca->certificatePem(), {"-ext", "basicConstraints,keyUsage", "-subject"});
        QVERIFY2(text.contains("critical") && text.contains("CA:TRUE"), qPrintable(text));
        QVERIFY2(text.contains("Certificate Sign") && text.contains("CRL Sign"), qPrintable(text));
        QVERIFY2(text.contains("Gatehouse Test CA"), qPrintable(text));
        const auto self = opensslVerify(m_ca->certificatePem(), m_ca->certificatePem());
        QVERIFY2(self.exitCode == 0, qPrintable(self.output));
        QCOMPARE(m_ca->sslCertificate().subjectInfo(QSslCertificate::CommonName),
                 QStringList{"Gatehouse Test CA"});
        QVERIFY(opensslText(m_ca->certificatePem(), {"-text"}).contains("ecdsa-with-SHA256"));
    }

    void caIssuedCertificatesVerify_data()
    {
        QTest::addColumn<CertificateRequest::Usage>("usage");
        QTest::addColumn<KeyType>("keyType");
        QTest::addColumn<QString>("purpose");
        QTest::addColumn<bool>("valid");
        using R = CertificateRequest;
        QTest::newRow("server EC as sslserver")
            << R::ServerAuth << KeyType::EcP256 << "sslserver" << true;
        QTest::newRow("server RSA as sslserver")
            << R::ServerAuth << KeyType::Rsa2048 << "sslserver" << true;
        QTest::newRow("server as sslclient")
            << R::ServerAuth << KeyType::EcP256 << "sslclient" << false;
        QTest::newRow("client as sslclient")
            << R::ClientAuth << KeyType::EcP256 << "sslclient" << true;
        QTest::newRow("client RSA as sslclient")
            << R::ClientAuth << KeyType::Rsa2048 << "sslclient" << true;
        QTest::newRow("client-only as sslserver")
            << R::ClientAuth << KeyType::EcP256 << "sslserver" << false;
        QTest::newRow("both as sslserver")
            << R::ServerAndClientAuth << KeyType::EcP256 << "sslserver" << true;
        QTest::newRow("both as sslclient")
            << R::ServerAndClientAuth << KeyType::EcP256 << "sslclient" << true;
        QTest::newRow("any purpose") << R::ClientAuth << KeyType::EcP256 << "" << true;
    }

    void caIssuedCertificatesVerify()
    {
        QFETCH(CertificateRequest::Usage, usage);
        QFETCH(KeyType, keyType);
        QFETCH(QString, purpose);
        QFETCH(bool, valid);

        CertificateRequest request;
        request.setValidity(QDateTime::currentDateTimeUtc());
        request.commonName = QStringLiteral("node-1");
        request.dnsNames = QStringList{"node-1.example.test"};
        request.usage = usage;
        request.keyType = keyType;
        auto issued = m_ca->issue(request);
        QVERIFY2(issued.ok(), qPrintable(issued.ok() ? QString() : issued.error().message));
        QCOMPARE(issued->key.type(), keyType);

        const auto result = opensslVerify(m_ca->certificatePem(), issued->certificatePem, purpose);
        QVERIFY2((result.exitCode == 0) == valid, qPrintable(result.output));

        // Our own verification agrees with openssl's.
        if (purpose == QLatin1String("sslserver"))
            QCOMPARE(m_ca->verifyCertificate(issued->certificatePem, CertificateRequest::ServerAuth)
                         .ok(),
                     valid);
        else if (purpose == QLatin1String("sslclient"))
            QCOMPARE(m_ca->verifyCertificate(issued->certificatePem, CertificateRequest::ClientAuth)
                         .ok(),
                     valid);

        // A different CA does not vouch for it.
        const auto foreign =
            opensslVerify(m_otherCa->certificatePem(), issued->certificatePem, purpose);
        QVERIFY2(foreign.exitCode != 0, qPrintable(foreign.output));
        QVERIFY(!m_otherCa->verifyCertificate(issued->certificatePem, usage).ok());

        // Extensions as specified.
        const QString text =
            opensslText(issued->certificatePem, {"-ext",
                                                 "basicConstraints,keyUsage,extendedKeyUsage,"
                                                 "subjectKeyIdentifier,authorityKeyIdentifier",
                                                 "-serial"});
        QVERIFY2(text.contains("CA:FALSE"), qPrintable(text));
        QVERIFY2(text.contains("Digital Signature"), qPrintable(text));
        QCOMPARE(text.contains("Key Encipherment"), keyType != KeyType::EcP256);
        QCOMPARE(text.contains("TLS Web Server Authentication"),
                 usage != CertificateRequest::ClientAuth);
        QCOMPARE(text.contains("TLS Web Client Authentication"),
                 usage != CertificateRequest::ServerAuth);
        QVERIFY2(text.contains("X509v3 Subject Key Identifier"), qPrintable(text));
        QVERIFY2(text.contains("X509v3 Authority Key Identifier"), qPrintable(text));
        QVERIFY(opensslText(issued->certificatePem, {"-text"}).contains("ecdsa-with-SHA256"));
    }

    void caSerialsAreRandom()
    {
        CertificateRequest request;
        request.setValidity(QDateTime::currentDateTimeUtc());
        request.commonName = QStringLiteral("serial");
        QSet<QByteArray> serials;
        for (int i = 0; i < 5; ++i) {
            auto issued = m_ca->issue(request);
            QVERIFY(issued.ok());
            const QByteArray serial = issued->sslCertificate().serialNumber();
            // 128 bits: 16 or 17 octets (a leading 00 keeps it positive), as aa:bb:... text.
            const qsizetype octets = serial.count(':') + 1;
            QVERIFY2(octets >= 15 && octets <= 17, serial.constData());
            serials.insert(serial);
        }
        QCOMPARE(serials.size(), 5);
    }

    void caServerCertificateSans()
    {
        CertificateRequest request;
        request.setValidity(QDateTime::currentDateTimeUtc());
        request.commonName = QStringLiteral("api");
        request.dnsNames = QStringList{"Kubernetes", "kubernetes.default.svc.cluster.local",
                                       "*.apps.example.test", "kubernetes"};
        request.ipAddresses = QStringList{"10.96.0.1", "::1", "fd00::42"};
        auto issued = m_ca->issue(request);
        QVERIFY(issued.ok());

        const auto sans = issued->sslCertificate().subjectAlternativeNames();
        const QStringList dns = sans.values(QSsl::DnsEntry);
        QCOMPARE(dns.size(), 3); // normalized to lower case, duplicates removed
        QVERIFY(dns.contains("kubernetes"));
        QVERIFY(dns.contains("kubernetes.default.svc.cluster.local"));
        QVERIFY(dns.contains("*.apps.example.test"));
        QList<QHostAddress> ips;
        for (const QString &ip : sans.values(QSsl::IpAddressEntry))
            ips << QHostAddress(ip);
        QCOMPARE(ips.size(), 3);
        QVERIFY(ips.contains(QHostAddress("10.96.0.1")));
        QVERIFY(ips.contains(QHostAddress("::1")));
        QVERIFY(ips.contains(QHostAddress("fd00::42")));

        const QString text = opensslText(issued->certificatePem, {"-ext", "subjectAltName"});
        QVERIFY2(text.contains("IP Address:0:0:0:0:0:0:0:1"), qPrintable(text));
        QVERIFY2(text.contains("DNS:kubernetes.default.svc.cluster.local"), qPrintable(text));
    }

    void caClientCertificateSubject()
    {
        CertificateRequest request;
        request.setValidity(QDateTime::currentDateTimeUtc());
        request.commonName = QStringLiteral("alice");
        request.organizations = QStringList{"system:masters", "team-a", "Équipe B"};
        request.usage = CertificateRequest::ClientAuth;
        auto issued = m_ca->issue(request);
        QVERIFY(issued.ok());
        const QSslCertificate cert = issued->sslCertificate();
        QCOMPARE(cert.subjectInfo(QSslCertificate::CommonName), QStringList{"alice"});
        // QSslCertificate keeps attributes in a multi-map (no order): compare as sets,
        // then check the RDN order with openssl.
        QStringList organizations = cert.subjectInfo(QSslCertificate::Organization);
        organizations.sort();
        QCOMPARE(organizations, (QStringList{"system:masters", "team-a", "Équipe B"}));
        const QString subject =
            opensslText(issued->certificatePem, {"-subject", "-nameopt", "RFC2253,-esc_msb"});
        QVERIFY2(subject.contains("O=Équipe B,O=team-a,O=system:masters,CN=alice"),
                 qPrintable(subject));
        QCOMPARE(cert.issuerInfo(QSslCertificate::CommonName), QStringList{"Gatehouse Test CA"});
        QVERIFY(cert.subjectAlternativeNames().isEmpty());

        // The Qt objects are usable for a TLS configuration.
        const QSslKey key = issued->sslKey();
        QVERIFY(!key.isNull());
        QCOMPARE(key.algorithm(), QSsl::Ec);
        QCOMPARE(cert.publicKey().toPem(),
                 QSslKey(issued->key.publicKeyPem(), QSsl::Ec, QSsl::Pem, QSsl::PublicKey).toPem());
    }

    void caExpiredCertificateFails()
    {
        CertificateRequest request;
        request.setValidity(QDateTime::currentDateTimeUtc());
        request.commonName = QStringLiteral("expired");
        request.usage = CertificateRequest::ServerAndClientAuth;
        request.notBefore = QDateTime::currentDateTimeUtc().addDays(-10);
        request.notAfter = QDateTime::currentDateTimeUtc().addDays(-1);
        auto issued = m_ca->issue(request);
        QVERIFY(issued.ok());
        const auto result = opensslVerify(m_ca->certificatePem(), issued->certificatePem);
        QVERIFY2(result.exitCode != 0, qPrintable(result.output));
        QVERIFY2(result.output.contains("expired"), qPrintable(result.output));
        const auto ours =
            m_ca->verifyCertificate(issued->certificatePem, CertificateRequest::ClientAuth);
        QVERIFY(!ours.ok());
        QCOMPARE(ours.error().code, QString::fromLatin1(ErrorCode::CertVerifyFailed));

        // Not yet valid either.
        request.notBefore = QDateTime::currentDateTimeUtc().addDays(1);
        request.notAfter = QDateTime::currentDateTimeUtc().addDays(10);
        auto future = m_ca->issue(request);
        QVERIFY(future.ok());
        QVERIFY(opensslVerify(m_ca->certificatePem(), future->certificatePem).exitCode != 0);
    }

    void caInvalidRequests_data()
    {
        QTest::addColumn<QString>("commonName");
        QTest::addColumn<QStringList>("organizations");
        QTest::addColumn<QStringList>("dnsNames");
        QTest::addColumn<QStringList>("ips");
        QTest::addColumn<int>("validDays");
        QTest::newRow("no CN") << "" << QStringList() << QStringList() << QStringList() << 1;
        QTest::newRow("CN over 64 chars")
            << QString(65, 'c') << QStringList() << QStringList() << QStringList() << 1;
        QTest::newRow("empty O") << "x" << QStringList{""} << QStringList() << QStringList() << 1;
        QTest::newRow("SAN injection")
            << "x" << QStringList() << QStringList{"a.test,IP:10.0.0.1"} << QStringList() << 1;
        QTest::newRow("DNS with space")
            << "x" << QStringList() << QStringList{"a b.test"} << QStringList() << 1;
        QTest::newRow("DNS empty label")
            << "x" << QStringList() << QStringList{"a..test"} << QStringList() << 1;
        QTest::newRow("wildcard in the middle")
            << "x" << QStringList() << QStringList{"a.*.test"} << QStringList() << 1;
        QTest::newRow("bad IP") << "x" << QStringList() << QStringList()
                                << QStringList{"10.0.0.300"} << 1;
        QTest::newRow("IP is a name")
            << "x" << QStringList() << QStringList() << QStringList{"localhost"} << 1;
        QTest::newRow("notAfter before notBefore")
            << "x" << QStringList() << QStringList() << QStringList() << -1;
    }

    void caInvalidRequests()
    {
        QFETCH(QString, commonName);
        QFETCH(QStringList, organizations);
        QFETCH(QStringList, dnsNames);
        QFETCH(QStringList, ips);
        QFETCH(int, validDays);
        CertificateRequest request;
        request.setValidity(QDateTime::currentDateTimeUtc());
        request.commonName = commonName;
        request.organizations = organizations;
        request.dnsNames = dnsNames;
        request.ipAddresses = ips;
        request.notAfter = request.notBefore.addDays(validDays);
        const auto issued = m_ca->issue(request);
        QVERIFY(!issued.ok());
        QCOMPARE(issued.error().code, QString::fromLatin1(ErrorCode::CertInvalidRequest));
    }

    void caLoadOrCreate()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("state/pki"));
        auto first = CertificateAuthority::loadOrCreate(dir, QStringLiteral("Gatehouse Local CA"),
                                                        QDateTime::currentDateTimeUtc());
        QVERIFY2(first.ok(), qPrintable(first.ok() ? QString() : first.error().message));
        QCOMPARE(fileMode(dir), 0700);
        QCOMPARE(fileMode(dir + "/ca.crt"), 0644);
        QCOMPARE(fileMode(dir + "/ca.key"), 0600);
        QCOMPARE(readFile(dir + "/ca.crt"), first->certificatePem());
        QCOMPARE(QDir(dir).entryList(QDir::Files), (QStringList{"ca.crt", "ca.key"}));

        auto second = CertificateAuthority::loadOrCreate(dir, QStringLiteral("Gatehouse Local CA"),
                                                         QDateTime::currentDateTimeUtc());
        QVERIFY(second.ok());
        QCOMPARE(second->certificatePem(), first->certificatePem());
        QCOMPARE(second->key().thumbprint(), first->key().thumbprint());

        // The loaded CA issues certificates that chain to the stored ca.crt.
        CertificateRequest request;
        request.setValidity(QDateTime::currentDateTimeUtc());
        request.commonName = QStringLiteral("after-reload");
        auto issued = second->issue(request);
        QVERIFY(issued.ok());
        const auto verified =
            opensslVerify(readFile(dir + "/ca.crt"), issued->certificatePem, "sslserver");
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.output));
    }

    void caLoadOrCreateRefusesBrokenState()
    {
        QTemporaryDir tmp;
        // Only a certificate: never silently replaced.
        QVERIFY(writeFile(tmp.filePath("ca.crt"), m_ca->certificatePem()));
        auto incomplete =
            CertificateAuthority::loadOrCreate(tmp.path(), "x", QDateTime::currentDateTimeUtc());
        QVERIFY(!incomplete.ok());
        QCOMPARE(incomplete.error().code, QString::fromLatin1(ErrorCode::CaIncomplete));
        QCOMPARE(readFile(tmp.filePath("ca.crt")), m_ca->certificatePem());

        // Key of another CA.
        QVERIFY(m_otherCa->key().saveFile(tmp.filePath("ca.key")).ok());
        auto mismatch =
            CertificateAuthority::loadOrCreate(tmp.path(), "x", QDateTime::currentDateTimeUtc());
        QVERIFY(!mismatch.ok());
        QCOMPARE(mismatch.error().code, QString::fromLatin1(ErrorCode::CaInvalid));

        // Garbage key.
        QVERIFY(writeFile(tmp.filePath("ca.key"), "garbage"));
        auto garbage =
            CertificateAuthority::loadOrCreate(tmp.path(), "x", QDateTime::currentDateTimeUtc());
        QVERIFY(!garbage.ok());
        QCOMPARE(garbage.error().code, QString::fromLatin1(ErrorCode::KeyInvalid));

        // A leaf certificate is not a CA.
        CertificateRequest request;
        request.setValidity(QDateTime::currentDateTimeUtc());
        request.commonName = QStringLiteral("leaf");
        auto leaf = m_ca->issue(request);
        QVERIFY(leaf.ok());
        QVERIFY(writeFile(tmp.filePath("ca.crt"), leaf->certificatePem));
        QVERIFY(leaf->key.saveFile(tmp.filePath("ca.key")).ok());
        auto notCa =
            CertificateAuthority::loadOrCreate(tmp.path(), "x", QDateTime::currentDateTimeUtc());
        QVERIFY(!notCa.ok());
        QCOMPARE(notCa.error().code, QString::fromLatin1(ErrorCode::CaInvalid));

        // A path that is a file.
        QVERIFY(!CertificateAuthority::loadOrCreate(tmp.filePath("ca.crt"), "x",
                                                    QDateTime::currentDateTimeUtc())
                     .ok());
    }

    void caServerCertificate()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.path();
        auto first = m_ca->loadOrIssueServerCertificate(dir, QDateTime::currentDateTimeUtc());
        QVERIFY2(first.ok(), qPrintable(first.ok() ? QString() : first.error().message));
        QCOMPARE(fileMode(dir + "/server.crt"), 0600);
        QCOMPARE(fileMode(dir + "/server.key"), 0600);
        QCOMPARE(readFile(dir + "/server.crt"), first->certificatePem);

        const auto verified =
            opensslVerify(m_ca->certificatePem(), first->certificatePem, "sslserver");
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.output));

        const auto sans = first->sslCertificate().subjectAlternativeNames();
        const QStringList dns = sans.values(QSsl::DnsEntry);
        for (const char *name : {"localhost", "kubernetes", "kubernetes.default",
                                 "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"})
            QVERIFY2(dns.contains(QLatin1String(name)), name);
        const QString host = QSysInfo::machineHostName().toLower();
        if (QRegularExpression(QStringLiteral("^[a-z0-9.-]+$")).match(host).hasMatch())
            QVERIFY2(dns.contains(host), qPrintable(host));
        QList<QHostAddress> ips;
        for (const QString &ip : sans.values(QSsl::IpAddressEntry))
            ips << QHostAddress(ip);
        QVERIFY(ips.contains(QHostAddress("127.0.0.1")));
        QVERIFY(ips.contains(QHostAddress("::1")));
        const QString text = opensslText(first->certificatePem, {"-ext", "subjectAltName"});
        QVERIFY2(text.contains("IP Address:0:0:0:0:0:0:0:1"), qPrintable(text));
        QVERIFY2(text.contains("DNS:kubernetes.default.svc.cluster.local"), qPrintable(text));

        // Loaded, not re-issued, while still good.
        auto second = m_ca->loadOrIssueServerCertificate(dir, QDateTime::currentDateTimeUtc());
        QVERIFY(second.ok());
        QCOMPARE(second->certificatePem, first->certificatePem);
        QCOMPARE(second->key.thumbprint(), first->key.thumbprint());

        // An extra SAN forces a new certificate that has it.
        auto third = m_ca->loadOrIssueServerCertificate(dir, QDateTime::currentDateTimeUtc(),
                                                        {"gatehouse.example.test"}, {"10.1.2.3"});
        QVERIFY(third.ok());
        QVERIFY(third->certificatePem != first->certificatePem);
        QVERIFY(third->sslCertificate()
                    .subjectAlternativeNames()
                    .values(QSsl::DnsEntry)
                    .contains("gatehouse.example.test"));
        QVERIFY(third->sslCertificate()
                    .subjectAlternativeNames()
                    .values(QSsl::IpAddressEntry)
                    .contains("10.1.2.3"));
        QCOMPARE(readFile(dir + "/server.crt"), third->certificatePem);
        auto fourth = m_ca->loadOrIssueServerCertificate(dir, QDateTime::currentDateTimeUtc(),
                                                         {"gatehouse.example.test"}, {"10.1.2.3"});
        QVERIFY(fourth.ok());
        QCOMPARE(fourth->certificatePem, third->certificatePem);

        // Invalid extras are an Error, not silently dropped.
        QVERIFY(
            !m_ca->loadOrIssueServerCertificate(dir, QDateTime::currentDateTimeUtc(), {"bad name"})
                 .ok());
        QVERIFY(!m_ca->loadOrIssueServerCertificate(dir, QDateTime::currentDateTimeUtc(), {},
                                                    {"not-an-ip"})
                     .ok());
    }

    void caServerCertificateRenewsByTheCallersTime()
    {
        // "Expiring within 30 days" is measured from the time the caller passes (its clock),
        // not the machine's: a year's certificate is kept 300 days on, renewed 340 days on.
        QTemporaryDir tmp;
        const QString dir = tmp.path();
        const QDateTime now = QDateTime::currentDateTimeUtc();
        auto first = m_ca->loadOrIssueServerCertificate(dir, now);
        QVERIFY(first.ok());
        auto kept = m_ca->loadOrIssueServerCertificate(dir, now.addDays(300));
        QVERIFY(kept.ok());
        QCOMPARE(kept->certificatePem, first->certificatePem);
        const QDateTime later = now.addDays(340);
        auto renewed = m_ca->loadOrIssueServerCertificate(dir, later);
        QVERIFY(renewed.ok());
        QVERIFY(renewed->certificatePem != first->certificatePem);
        const QDateTime expiry = renewed->sslCertificate().expiryDate();
        QVERIFY2(qAbs(expiry.secsTo(later.addDays(365))) < 5, qPrintable(expiry.toString()));
    }

    void caServerCertificateReissue_data()
    {
        QTest::addColumn<QString>("situation");
        QTest::newRow("issued by another CA") << "foreign";
        QTest::newRow("expires within 30 days") << "expiring";
        QTest::newRow("expired") << "expired";
        QTest::newRow("key does not match") << "wrong-key";
        QTest::newRow("garbage certificate") << "garbage";
        QTest::newRow("key missing") << "no-key";
        QTest::newRow("client certificate") << "client";
#ifdef Q_OS_UNIX
        // Whoever could read it could pose as this server: replaced, not reused.
        QTest::newRow("key readable by others") << "exposed";
#endif
    }

    void caServerCertificateReissue()
    {
        QFETCH(QString, situation);
        QTemporaryDir tmp;
        const QString dir = tmp.path();
        auto good = m_ca->loadOrIssueServerCertificate(dir, QDateTime::currentDateTimeUtc());
        QVERIFY(good.ok());

        // The same SANs as a good certificate, so only the situation differs.
        CertificateRequest request;
        request.setValidity(QDateTime::currentDateTimeUtc());
        request.commonName = QStringLiteral("gatehouse");
        const auto sans = good->sslCertificate().subjectAlternativeNames();
        request.dnsNames = sans.values(QSsl::DnsEntry);
        request.ipAddresses = sans.values(QSsl::IpAddressEntry);
        request.usage = CertificateRequest::ServerAuth;
        const CertificateAuthority &issuer =
            situation == QLatin1String("foreign") ? *m_otherCa : *m_ca;
        if (situation == QLatin1String("expiring"))
            request.notAfter = QDateTime::currentDateTimeUtc().addDays(10);
        if (situation == QLatin1String("expired")) {
            request.notBefore = QDateTime::currentDateTimeUtc().addDays(-60);
            request.notAfter = QDateTime::currentDateTimeUtc().addDays(-1);
        }
        if (situation == QLatin1String("client"))
            request.usage = CertificateRequest::ClientAuth;
        auto planted = issuer.issue(request);
        QVERIFY(planted.ok());

        QVERIFY(writeFile(dir + "/server.crt", situation == QLatin1String("garbage")
                                                   ? QByteArray("garbage")
                                                   : planted->certificatePem));
        if (situation == QLatin1String("wrong-key"))
            QVERIFY(m_ec.saveFile(dir + "/server.key").ok());
        else if (situation == QLatin1String("no-key"))
            QVERIFY(QFile::remove(dir + "/server.key"));
        else
            QVERIFY(planted->key.saveFile(dir + "/server.key").ok());
        if (situation == QLatin1String("exposed"))
            QVERIFY(QFile::setPermissions(dir + "/server.key",
                                          QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup |
                                              QFile::ReadOther));

        auto reissued = m_ca->loadOrIssueServerCertificate(dir, QDateTime::currentDateTimeUtc());
        QVERIFY2(reissued.ok(), qPrintable(reissued.ok() ? QString() : reissued.error().message));
        QVERIFY(reissued->certificatePem != planted->certificatePem);
        QCOMPARE(readFile(dir + "/server.crt"), reissued->certificatePem);
        const auto verified =
            opensslVerify(m_ca->certificatePem(), reissued->certificatePem, "sslserver");
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.output));
        QVERIFY(reissued->sslCertificate().expiryDate() >
                QDateTime::currentDateTimeUtc().addDays(300));
        auto key = PrivateKey::loadFile(dir + "/server.key");
        QVERIFY(key.ok());
        QCOMPARE(key->thumbprint(), reissued->key.thumbprint());
        QVERIFY(key->thumbprint() != planted->key.thumbprint());
        QCOMPARE(fileMode(dir + "/server.key"), 0600);
    }

    // ---- Passwords ---------------------------------------------------------------

    void passwordDefaultParameters()
    {
        auto hash = Password::hash("correct horse battery staple");
        QVERIFY(hash.ok());
        QVERIFY2(hash->startsWith("$argon2id$v=19$m=65536,t=3,p=1$"), qPrintable(*hash));
        QVERIFY(Password::verify(*hash, "correct horse battery staple"));
        QVERIFY(!Password::verify(*hash, "correct horse battery stapler"));
        // 16-byte salt: 22 unpadded base64 characters.
        QCOMPARE(hash->split('$').at(4).size(), 22);
        // Which costs it was made with (a sign-in makes an older hash again: UserStore).
        QVERIFY(Password::madeWith(*hash, {}));
        Password::Parameters cheaper;
        cheaper.memoryKiB = 19456;
        cheaper.timeCost = 2;
        QVERIFY(!Password::madeWith(*hash, cheaper));
        auto other = Password::hash("correct horse battery staple", cheaper);
        QVERIFY(other.ok());
        QVERIFY2(other->startsWith("$argon2id$v=19$m=19456,t=2,p=1$"), qPrintable(*other));
        QVERIFY(Password::madeWith(*other, cheaper));
        QVERIFY(!Password::madeWith(*other, {}));
        cheaper.memoryKiB = 1945; // a prefix of the other's m= is not the same cost
        QVERIFY(!Password::madeWith(*other, cheaper));
        QVERIFY(!Password::madeWith(QStringLiteral("$argon2i$v=19$m=65536,t=3,p=1$x$y"), {}));
    }

    void passwordVerify_data()
    {
        QTest::addColumn<QByteArray>("password");
        QTest::addColumn<QByteArray>("candidate");
        QTest::addColumn<bool>("match");
        QTest::newRow("right") << QByteArray("s3cret!") << QByteArray("s3cret!") << true;
        QTest::newRow("wrong") << QByteArray("s3cret!") << QByteArray("s3cret?") << false;
        QTest::newRow("prefix") << QByteArray("s3cret!") << QByteArray("s3cret") << false;
        QTest::newRow("extra byte") << QByteArray("s3cret!") << QByteArray("s3cret!\0", 8) << false;
        QTest::newRow("case") << QByteArray("Secret") << QByteArray("secret") << false;
        QTest::newRow("empty vs empty") << QByteArray() << QByteArray() << true;
        QTest::newRow("empty vs something") << QByteArray() << QByteArray("x") << false;
        QTest::newRow("utf-8") << QString("pässwörd").toUtf8() << QString("pässwörd").toUtf8()
                               << true;
        QTest::newRow("long") << QByteArray(10000, 'p') << QByteArray(10000, 'p') << true;
    }

    void passwordVerify()
    {
        QFETCH(QByteArray, password);
        QFETCH(QByteArray, candidate);
        QFETCH(bool, match);
        auto hash = Password::hash(password, cheap());
        QVERIFY(hash.ok());
        QVERIFY(hash->startsWith("$argon2id$"));
        QCOMPARE(Password::verify(*hash, candidate), match);
    }

    void passwordSaltDiffers()
    {
        auto a = Password::hash("same", cheap());
        auto b = Password::hash("same", cheap());
        QVERIFY(a.ok() && b.ok());
        QVERIFY(*a != *b);
        QVERIFY(a->split('$').at(4) != b->split('$').at(4));
        QVERIFY(Password::verify(*a, "same"));
        QVERIFY(Password::verify(*b, "same"));
    }

    void passwordGarbage_data()
    {
        QTest::addColumn<QString>("encoded");
        const QString good = *Password::hash("pw", cheap());
        QString flipped = good;
        flipped[flipped.size() - 3] = flipped[flipped.size() - 3] == QLatin1Char('A') ? 'B' : 'A';
        QTest::newRow("empty") << QString();
        QTest::newRow("text") << QStringLiteral("garbage");
        QTest::newRow("plain password") << QStringLiteral("pw");
        QTest::newRow("argon2i variant") << QString(good).replace("$argon2id$", "$argon2i$");
        QTest::newRow("argon2d variant") << QString(good).replace("$argon2id$", "$argon2d$");
        QTest::newRow("truncated") << good.left(good.size() - 10);
        QTest::newRow("no hash") << good.left(good.lastIndexOf('$') + 1);
        QTest::newRow("flipped hash char") << flipped;
        QTest::newRow("bcrypt") << QStringLiteral(
            "$2y$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy");
        QTest::newRow("huge memory cost")
            << QString(good).replace(QRegularExpression("m=\\d+"), "m=4194304");
        QTest::newRow("huge time cost")
            << QString(good).replace(QRegularExpression("t=\\d+"), "t=4000000000");
        QTest::newRow("zero parallelism")
            << QString(good).replace(QRegularExpression("p=\\d+"), "p=0");
        QTest::newRow("overflowing number")
            << QString(good).replace(QRegularExpression("m=\\d+"), "m=99999999999");
        QTest::newRow("very long") << QString(good).append(QString(100000, 'A'));
        QTest::newRow("unicode") << QString(good).replace(0, 1, QStringLiteral("€"));
        QTest::newRow("embedded NUL") << QString(good).insert(20, QChar(0));
    }

    void passwordGarbage()
    {
        QFETCH(QString, encoded);
        QVERIFY(!Password::verify(encoded, "pw"));
    }

    void passwordInvalidParameters()
    {
        Password::Parameters p = cheap();
        p.memoryKiB = 4; // below argon2's minimum
        auto hash = Password::hash("x", p);
        QVERIFY(!hash.ok());
        QCOMPARE(hash.error().code, QString::fromLatin1(ErrorCode::PasswordInvalidParameters));
        p = cheap();
        p.timeCost = 0;
        QVERIFY(!Password::hash("x", p).ok());
    }

private:
    static Password::Parameters cheap()
    {
        Password::Parameters p;
        p.timeCost = 1;
        p.memoryKiB = 1024;
        return p;
    }

    // crypto/tls.h: a client engine and a server engine talk through memory (the bytes one
    // side's takeOutgoing() gives are the other side's receive()), as the HTTP server drives
    // them over a socket. Returns the server side after the client's request arrived.
    struct TlsRun
    {
        Core::TlsConnection::State client = Core::TlsConnection::State::Handshaking;
        Core::TlsConnection::State server = Core::TlsConnection::State::Handshaking;
        Core::PeerIdentity identity;
        QByteArray received; // plaintext the server decrypted
        QString serverError;
        QString clientError;
        QString description;
    };

    TlsRun tlsRun(const Core::TlsEngine &serverEngine, const Core::TlsEngine &clientEngine,
                  const QByteArray &request)
    {
        TlsRun run;
        auto server = serverEngine.newConnection();
        auto client = clientEngine.newConnection();
        bool sent = false;
        for (int round = 0; round < 10; ++round) {
            QByteArray plain;
            run.client = client->advance(plain);
            if (run.client == Core::TlsConnection::State::Established && !sent) {
                client->send(request.constData(), request.size());
                sent = true;
            }
            QByteArray toServer = client->takeOutgoing();
            server->receive(toServer.constData(), toServer.size());
            run.server = server->advance(run.received);
            QByteArray toClient = server->takeOutgoing();
            client->receive(toClient.constData(), toClient.size());
            if (run.server == Core::TlsConnection::State::Failed ||
                run.client == Core::TlsConnection::State::Failed || run.received == request)
                break;
        }
        run.identity = server->peerIdentity();
        run.serverError = server->errorString();
        run.clientError = client->errorString();
        run.description = server->description();
        return run;
    }

    Core::TlsSettings tlsServerSettings()
    {
        CertificateRequest req;
        req.setValidity(QDateTime::currentDateTimeUtc());
        req.commonName = QStringLiteral("localhost");
        req.dnsNames = {QStringLiteral("localhost")};
        req.ipAddresses = {QStringLiteral("127.0.0.1")};
        req.usage = CertificateRequest::ServerAuth;
        auto cert = m_ca->issue(req);
        Core::TlsSettings tls;
        tls.certificate = cert->sslCertificate();
        tls.privateKey = cert->sslKey();
        tls.clientCaCertificates = {m_ca->sslCertificate()};
        return tls;
    }

    std::shared_ptr<const Core::TlsEngine>
    tlsClient(const IssuedCertificate *certificate,
              const QString &serverName = QStringLiteral("127.0.0.1"))
    {
        TlsClientSettings settings;
        settings.caCertificates = {m_ca->sslCertificate()};
        settings.serverName = serverName;
        if (certificate) {
            settings.certificate = certificate->sslCertificate();
            settings.privateKey = certificate->sslKey();
        }
        auto engine = tlsClientEngine(settings);
        return engine ? *engine : nullptr;
    }

    IssuedCertificate
    clientCertificate(const CertificateAuthority &ca, const QString &cn, int validFromDays = -1,
                      int validToDays = 30,
                      CertificateRequest::Usage usage = CertificateRequest::ClientAuth)
    {
        CertificateRequest req;
        req.commonName = cn;
        req.organizations = {QStringLiteral("system:nodes"), QStringLiteral("ops")};
        req.usage = usage;
        req.notBefore = QDateTime::currentDateTimeUtc().addDays(validFromDays);
        req.notAfter = QDateTime::currentDateTimeUtc().addDays(validToDays);
        return *ca.issue(req);
    }

private slots:
    void tlsVerifiedClientCertificateTwice()
    {
        auto server = tlsServerEngine(tlsServerSettings());
        QVERIFY2(server.ok(), qPrintable(server.ok() ? QString() : server.error().message));
        const IssuedCertificate cert = clientCertificate(*m_ca, QStringLiteral("system:node:n1"));
        auto client = tlsClient(&cert);
        QVERIFY(client);
        // The second handshake with the same certificate takes the verified-certificate cache;
        // both must give the same identity.
        for (int i = 0; i < 2; ++i) {
            const TlsRun run = tlsRun(**server, *client, "GET / HTTP/1.1\r\n\r\n");
            QCOMPARE(run.server, Core::TlsConnection::State::Established);
            QCOMPARE(run.received, QByteArray("GET / HTTP/1.1\r\n\r\n"));
            QCOMPARE(run.identity.state, Core::PeerIdentity::State::Verified);
            QCOMPARE(run.identity.commonName, QStringLiteral("system:node:n1"));
            QCOMPARE(run.identity.organizations,
                     (QStringList{QStringLiteral("system:nodes"), QStringLiteral("ops")}));
            QVERIFY2(run.description.startsWith(QStringLiteral("TLSv1.3 ")),
                     qPrintable(run.description));
        }
    }

    void tlsRejectedClientCertificates_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("reason");
        QTest::newRow("foreign CA") << "foreign"
                                    << "unable to get local issuer certificate";
        QTest::newRow("expired") << "expired"
                                 << "certificate has expired";
        QTest::newRow("not yet valid") << "future"
                                       << "certificate is not yet valid";
        QTest::newRow("serverAuth only") << "serverAuth"
                                         << "unsuitable certificate purpose";
    }

    // A certificate that does not verify completes the handshake (the server answers 401 in
    // its own words) but is never an identity; failures are not cached: twice the same verdict.
    void tlsRejectedClientCertificates()
    {
        QFETCH(QString, kind);
        QFETCH(QString, reason);
        auto server = tlsServerEngine(tlsServerSettings());
        QVERIFY(server.ok());
        const QString cn = QStringLiteral("system:masters-wannabe");
        const IssuedCertificate cert =
            kind == QLatin1String("foreign")   ? clientCertificate(*m_otherCa, cn)
            : kind == QLatin1String("expired") ? clientCertificate(*m_ca, cn, -10, -1)
            : kind == QLatin1String("future")
                ? clientCertificate(*m_ca, cn, 1, 10)
                : clientCertificate(*m_ca, cn, -1, 30, CertificateRequest::ServerAuth);
        auto client = tlsClient(&cert);
        QVERIFY(client);
        for (int i = 0; i < 2; ++i) {
            const TlsRun run = tlsRun(**server, *client, "GET / HTTP/1.1\r\n\r\n");
            QCOMPARE(run.server, Core::TlsConnection::State::Established);
            QCOMPARE(run.identity.state, Core::PeerIdentity::State::Invalid);
            QVERIFY(run.identity.commonName.isEmpty());
            QVERIFY(run.identity.organizations.isEmpty());
            QVERIFY2(run.identity.invalidReason.contains(reason),
                     qPrintable(run.identity.invalidReason));
        }
    }

    void tlsWithoutClientCertificateIsAnonymous()
    {
        auto server = tlsServerEngine(tlsServerSettings());
        QVERIFY(server.ok());
        auto client = tlsClient(nullptr);
        const TlsRun run = tlsRun(**server, *client, "ping");
        QCOMPARE(run.server, Core::TlsConnection::State::Established);
        QCOMPARE(run.received, QByteArray("ping"));
        QCOMPARE(run.identity.state, Core::PeerIdentity::State::None);
    }

    void tlsFailures()
    {
        auto server = tlsServerEngine(tlsServerSettings());
        QVERIFY(server.ok());
        // Garbage instead of a ClientHello: Failed, with a reason and an alert to send.
        auto s = (*server)->newConnection();
        const QByteArray garbage("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        s->receive(garbage.constData(), garbage.size());
        QByteArray plain;
        QCOMPARE(s->advance(plain), Core::TlsConnection::State::Failed);
        QVERIFY(plain.isEmpty());
        QVERIFY(!s->errorString().isEmpty());
        QVERIFY(s->peerIdentity().state == Core::PeerIdentity::State::None);
        // A client that expects another name refuses the server's certificate.
        auto wrongName = tlsClient(nullptr, QStringLiteral("other.example"));
        const TlsRun run = tlsRun(**server, *wrongName, "x");
        QCOMPARE(run.client, Core::TlsConnection::State::Failed);
        QVERIFY2(run.clientError.contains(QStringLiteral("certificate verify failed")),
                 qPrintable(run.clientError));
        QVERIFY(run.received.isEmpty());
        // A key that does not belong to the certificate is refused when the engine is built.
        Core::TlsSettings mismatched = tlsServerSettings();
        mismatched.privateKey = tlsServerSettings().privateKey;
        auto refused = tlsServerEngine(mismatched);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.contains(QStringLiteral("does not match")),
                 qPrintable(refused.error().message));
    }

    void tlsCloseNotify()
    {
        auto server = tlsServerEngine(tlsServerSettings());
        QVERIFY(server.ok());
        auto clientEngine = tlsClient(nullptr);
        auto s = (*server)->newConnection();
        auto c = clientEngine->newConnection();
        QByteArray plain;
        for (int i = 0; i < 4; ++i) {
            c->advance(plain);
            const QByteArray a = c->takeOutgoing();
            s->receive(a.constData(), a.size());
            s->advance(plain);
            const QByteArray b = s->takeOutgoing();
            c->receive(b.constData(), b.size());
        }
        QCOMPARE(s->state(), Core::TlsConnection::State::Established);
        c->close();
        const QByteArray bye = c->takeOutgoing();
        QVERIFY(!bye.isEmpty());
        s->receive(bye.constData(), bye.size());
        QCOMPARE(s->advance(plain), Core::TlsConnection::State::Closed);
        // What came before the peer's close is still answered...
        s->send("answer", 6);
        const QByteArray answer = s->takeOutgoing();
        QVERIFY(answer.size() > 6); // one encrypted record
        QVERIFY(!answer.contains("answer"));
        // ...then our own close_notify, and nothing after it.
        s->close();
        QVERIFY(!s->takeOutgoing().isEmpty());
        s->send("late", 4);
        QVERIFY(s->takeOutgoing().isEmpty());
        QCOMPARE(s->state(), Core::TlsConnection::State::Closed);
    }
};

QTEST_GUILESS_MAIN(TestCrypto)
#include "tst_crypto.moc"
