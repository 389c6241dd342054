#pragma once

#include "core/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <memory>

namespace Gatehouse::Crypto {

enum class KeyType { Rsa2048, Rsa3072, EcP256 };

class PrivateKeyPrivate;

// An asymmetric private key (RSA 2048/3072 or EC P-256). A copyable value: copies
// share the same immutable key. A default-constructed key is null; every other
// member requires a non-null key.
class PrivateKey
{
public:
    PrivateKey();
    ~PrivateKey();
    PrivateKey(const PrivateKey &);
    PrivateKey &operator=(const PrivateKey &);
    PrivateKey(PrivateKey &&) noexcept;
    PrivateKey &operator=(PrivateKey &&) noexcept;

    static Result<PrivateKey> generate(KeyType type);
    // PEM: PKCS#8 "PRIVATE KEY" or the traditional RSA/EC forms. Encrypted PEM is
    // refused (no passphrase prompt, ever).
    static Result<PrivateKey> fromPem(const QByteArray &pem);
    static Result<PrivateKey> loadFile(const QString &path);

    // Writes PKCS#8 PEM atomically; the file is mode 0600 from creation.
    Result<void> saveFile(const QString &path) const;

    bool isNull() const;
    // PKCS#8 PEM of the private key: secret material, handle with care.
    QByteArray toPem() const;
    // SubjectPublicKeyInfo PEM ("PUBLIC KEY").
    QByteArray publicKeyPem() const;
    KeyType type() const;
    bool isRsa() const;
    // "RS256" for RSA, "ES256" for EC P-256.
    QString defaultJwsAlg() const;
    // RFC 7638 JWK thumbprint: base64url(SHA-256(canonical public JWK)). A good `kid`.
    QString thumbprint() const;

private:
    friend struct PrivateKeyAccess;
    explicit PrivateKey(std::shared_ptr<const PrivateKeyPrivate> d);

    std::shared_ptr<const PrivateKeyPrivate> m_d;
};

// RFC 7638 thumbprint of a public JWK (RSA: e, kty, n; EC: crv, kty, x, y; OKP: crv, kty, x;
// other members ignored): the same key gives the same thumbprint whatever its kid, alg or use.
// Empty for a JWK without those members as strings.
QString jwkThumbprint(const QJsonObject &publicJwk);

} // namespace Gatehouse::Crypto
