#include "crypto/certificateauthority.h"

#include "crypto/cryptologging.h"
#include "crypto/errorcodes.h"
#include "crypto/opensslutil_p.h"
#include "crypto/privatekey_p.h"
#include "crypto/random.h"
#include "crypto/securefile_p.h"
#include "platform/platform.h"

#include <QDir>
#include <QFileInfo>
#include <QHostAddress>
#include <QSysInfo>

#include <openssl/err.h>
#include <openssl/pem.h>

#include <optional>

namespace Gatehouse::Crypto {

using namespace Detail;

class CertificateAuthorityPrivate
{
public:
    X509Ptr certificate;
    QByteArray certificatePem;
    PrivateKey key;
};

namespace {

constexpr int RenewBeforeDays = 30;
constexpr qsizetype MaxCaPemSize = 256 * 1024;

const char *const CaCertificateFile = "ca.crt";
const char *const CaKeyFile = "ca.key";
const char *const ServerCertificateFile = "server.crt";
const char *const ServerKeyFile = "server.key";

Result<X509Ptr> parseCertificate(const QByteArray &pem)
{
    if (pem.isEmpty() || pem.size() > MaxCaPemSize)
        return makeError(ErrorCode::CertInvalid, QStringLiteral("empty or oversized PEM"), 400);
    ERR_clear_error();
    BioPtr bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    X509Ptr cert(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
    if (!cert)
        return openSslError(ErrorCode::CertInvalid, QStringLiteral("not a PEM certificate"), 400);
    return cert;
}

QByteArray toPem(X509 *cert)
{
    BioPtr bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_X509(bio.get(), cert) != 1)
        return {};
    return readBio(bio.get());
}

// RFC 1123 host name (lower case, ASCII), optionally with a leftmost "*" label.
std::optional<QString> normalizedDnsName(const QString &name)
{
    QString n = name.trimmed().toLower();
    if (n.endsWith(QLatin1Char('.')))
        n.chop(1);
    if (n.isEmpty() || n.size() > 253)
        return std::nullopt;
    const QStringList labels = n.split(QLatin1Char('.'));
    for (qsizetype i = 0; i < labels.size(); ++i) {
        const QString &label = labels[i];
        if (i == 0 && label == QLatin1String("*") && labels.size() > 2)
            continue;
        if (label.isEmpty() || label.size() > 63 || label.startsWith(QLatin1Char('-')) ||
            label.endsWith(QLatin1Char('-')))
            return std::nullopt;
        for (const QChar c : label) {
            if (!((c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                  (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('-')))
                return std::nullopt;
        }
    }
    return n;
}

std::optional<QHostAddress> parsedIp(const QString &text)
{
    QHostAddress address;
    if (!address.setAddress(text.trimmed()))
        return std::nullopt;
    address.setScopeId(QString());
    return address;
}

struct SubjectAltNames
{
    QStringList dns;
    QList<QHostAddress> ips;
};

Result<SubjectAltNames> normalizedSans(const QStringList &dnsNames, const QStringList &ipAddresses)
{
    SubjectAltNames sans;
    for (const QString &name : dnsNames) {
        const auto n = normalizedDnsName(name);
        if (!n)
            return makeError(ErrorCode::CertInvalidRequest,
                             QStringLiteral("invalid DNS name '%1'").arg(name), 400);
        if (!sans.dns.contains(*n))
            sans.dns << *n;
    }
    for (const QString &ip : ipAddresses) {
        const auto address = parsedIp(ip);
        if (!address)
            return makeError(ErrorCode::CertInvalidRequest,
                             QStringLiteral("invalid IP address '%1'").arg(ip), 400);
        if (!sans.ips.contains(*address))
            sans.ips << *address;
    }
    return sans;
}

SubjectAltNames certificateSans(X509 *cert)
{
    SubjectAltNames sans;
    GeneralNamesPtr names(static_cast<GENERAL_NAMES *>(
        X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr)));
    if (!names)
        return sans;
    for (int i = 0; i < sk_GENERAL_NAME_num(names.get()); ++i) {
        const GENERAL_NAME *name = sk_GENERAL_NAME_value(names.get(), i);
        if (name->type == GEN_DNS) {
            const ASN1_STRING *s = name->d.dNSName;
            sans.dns << QString::fromLatin1(
                            reinterpret_cast<const char *>(ASN1_STRING_get0_data(s)),
                            ASN1_STRING_length(s))
                            .toLower();
        } else if (name->type == GEN_IPADD) {
            const ASN1_OCTET_STRING *s = name->d.iPAddress;
            const unsigned char *data = ASN1_STRING_get0_data(s);
            if (ASN1_STRING_length(s) == 4)
                sans.ips << QHostAddress(quint32(data[0]) << 24 | quint32(data[1]) << 16 |
                                         quint32(data[2]) << 8 | quint32(data[3]));
            else if (ASN1_STRING_length(s) == 16)
                sans.ips << QHostAddress(data);
        }
    }
    ERR_clear_error();
    return sans;
}

Result<void> addSubjectAltNames(X509 *cert, const SubjectAltNames &sans)
{
    if (sans.dns.isEmpty() && sans.ips.isEmpty())
        return {};
    GeneralNamesPtr names(sk_GENERAL_NAME_new_null());
    if (!names)
        return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("out of memory"));
    // Built from typed values, never from an OpenSSL config string, so a name cannot
    // smuggle extra entries ("a.example,IP:10.0.0.1").
    for (const QString &dns : sans.dns) {
        const QByteArray ascii = dns.toLatin1();
        GeneralNamePtr name(GENERAL_NAME_new());
        ASN1_IA5STRING *value = ASN1_IA5STRING_new();
        if (!name || !value || ASN1_STRING_set(value, ascii.constData(), int(ascii.size())) != 1) {
            ASN1_IA5STRING_free(value);
            return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("cannot encode SAN"));
        }
        GENERAL_NAME_set0_value(name.get(), GEN_DNS, value);
        if (sk_GENERAL_NAME_push(names.get(), name.get()) <= 0)
            return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("cannot encode SAN"));
        static_cast<void>(name.release()); // owned by the stack now
    }
    for (const QHostAddress &ip : sans.ips) {
        QByteArray raw;
        if (ip.protocol() == QAbstractSocket::IPv4Protocol) {
            const quint32 v4 = ip.toIPv4Address();
            const char bytes[4] = {char(v4 >> 24), char(v4 >> 16), char(v4 >> 8), char(v4)};
            raw = QByteArray(bytes, 4);
        } else {
            const Q_IPV6ADDR v6 = ip.toIPv6Address();
            raw = QByteArray(reinterpret_cast<const char *>(v6.c), 16);
        }
        GeneralNamePtr name(GENERAL_NAME_new());
        ASN1_OCTET_STRING *value = ASN1_OCTET_STRING_new();
        if (!name || !value ||
            ASN1_OCTET_STRING_set(value, reinterpret_cast<const unsigned char *>(raw.constData()),
                                  int(raw.size())) != 1) {
            ASN1_OCTET_STRING_free(value);
            return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("cannot encode SAN"));
        }
        GENERAL_NAME_set0_value(name.get(), GEN_IPADD, value);
        if (sk_GENERAL_NAME_push(names.get(), name.get()) <= 0)
            return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("cannot encode SAN"));
        static_cast<void>(name.release()); // owned by the stack now
    }
    // Non-critical: the subject always has a CN here (RFC 5280 section 4.2.1.6).
    if (X509_add1_ext_i2d(cert, NID_subject_alt_name, names.get(), 0, X509V3_ADD_DEFAULT) != 1)
        return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("cannot add SAN"));
    return {};
}

Result<void> addExtension(X509 *cert, X509 *issuer, int nid, const char *value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509ExtPtr ext(X509V3_EXT_nconf_nid(nullptr, &ctx, nid, value));
    if (!ext || X509_add_ext(cert, ext.get(), -1) != 1)
        return openSslError(
            ErrorCode::CertIssueFailed,
            QStringLiteral("cannot add extension %1").arg(QString::fromLatin1(OBJ_nid2sn(nid))));
    return {};
}

Result<void> setSerialAndValidity(X509 *cert, const QDateTime &notBefore, const QDateTime &notAfter)
{
    if (!notBefore.isValid() || !notAfter.isValid())
        return makeError(ErrorCode::CertInvalidRequest,
                         QStringLiteral("notBefore and notAfter are required"), 400);
    if (notBefore >= notAfter)
        return makeError(ErrorCode::CertInvalidRequest,
                         QStringLiteral("notBefore must be before notAfter"), 400);
    // 128 random bits, encoded as a positive INTEGER (RFC 5280 section 4.1.2.2).
    const QByteArray random = Random::bytes(16);
    BnPtr bn(BN_bin2bn(reinterpret_cast<const unsigned char *>(random.constData()),
                       int(random.size()), nullptr));
    if (bn && BN_is_zero(bn.get()))
        BN_one(bn.get());
    Asn1IntegerPtr serial(bn ? BN_to_ASN1_INTEGER(bn.get(), nullptr) : nullptr);
    if (!serial || X509_set_serialNumber(cert, serial.get()) != 1)
        return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("cannot set serial"));
    if (!ASN1_TIME_set(X509_getm_notBefore(cert), time_t(notBefore.toSecsSinceEpoch())) ||
        !ASN1_TIME_set(X509_getm_notAfter(cert), time_t(notAfter.toSecsSinceEpoch())))
        return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("cannot set validity"));
    return {};
}

Result<void> addNameEntry(X509_NAME *name, const char *field, const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    // Typed entries: no parsing of "/CN=...". Over-long values (CN, O > 64) fail here.
    if (X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8,
                                   reinterpret_cast<const unsigned char *>(utf8.constData()),
                                   int(utf8.size()), -1, 0) != 1)
        return openSslError(
            ErrorCode::CertInvalidRequest,
            QStringLiteral("invalid %1 '%2'").arg(QString::fromLatin1(field), value), 400);
    return {};
}

Result<void> verifyChain(X509 *ca, X509 *leaf, int purpose)
{
    X509StorePtr store(X509_STORE_new());
    X509StoreCtxPtr ctx(X509_STORE_CTX_new());
    if (!store || !ctx || X509_STORE_add_cert(store.get(), ca) != 1 ||
        X509_STORE_CTX_init(ctx.get(), store.get(), leaf, nullptr) != 1 ||
        X509_STORE_CTX_set_purpose(ctx.get(), purpose) != 1)
        return openSslError(ErrorCode::Internal, QStringLiteral("cannot set up verification"));
    if (X509_verify_cert(ctx.get()) != 1) {
        const int error = X509_STORE_CTX_get_error(ctx.get());
        ERR_clear_error();
        return makeError(ErrorCode::CertVerifyFailed,
                         QString::fromLatin1(X509_verify_cert_error_string(error)), 401);
    }
    return {};
}

QString describe(X509 *cert)
{
    char buffer[256] = {};
    X509_NAME_oneline(X509_get_subject_name(cert), buffer, sizeof(buffer));
    return QString::fromUtf8(buffer);
}

} // namespace

QSslCertificate IssuedCertificate::sslCertificate() const
{
    return QSslCertificate(certificatePem, QSsl::Pem);
}

QSslKey IssuedCertificate::sslKey() const
{
    if (key.isNull())
        return {};
    QByteArray pem = key.toPem();
    QSslKey sslKey(pem, key.isRsa() ? QSsl::Rsa : QSsl::Ec, QSsl::Pem, QSsl::PrivateKey);
    wipe(pem);
    return sslKey;
}

CertificateAuthority::~CertificateAuthority() = default;
CertificateAuthority::CertificateAuthority(const CertificateAuthority &) = default;
CertificateAuthority &CertificateAuthority::operator=(const CertificateAuthority &) = default;
CertificateAuthority::CertificateAuthority(CertificateAuthority &&) noexcept = default;
CertificateAuthority &CertificateAuthority::operator=(CertificateAuthority &&) noexcept = default;

CertificateAuthority::CertificateAuthority(std::shared_ptr<const CertificateAuthorityPrivate> d)
    : m_d(std::move(d))
{}

Result<CertificateAuthority> CertificateAuthority::create(const QString &commonName,
                                                          KeyType keyType, const QDateTime &now,
                                                          int validityDays)
{
    if (commonName.trimmed().isEmpty() || validityDays < 1)
        return makeError(ErrorCode::CertInvalidRequest,
                         QStringLiteral("a CA needs a common name and a positive validity"), 400);
    auto key = PrivateKey::generate(keyType);
    if (!key)
        return key.error();
    EVP_PKEY *pkey = PrivateKeyAccess::pkey(*key);

    ERR_clear_error();
    X509Ptr cert(X509_new());
    if (!cert || X509_set_version(cert.get(), X509_VERSION_3) != 1)
        return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("out of memory"));
    if (auto r = setSerialAndValidity(cert.get(), now.addSecs(-5 * 60), now.addDays(validityDays));
        !r)
        return r.error();
    X509_NAME *name = X509_get_subject_name(cert.get());
    if (auto r = addNameEntry(name, "CN", commonName.trimmed()); !r)
        return r.error();
    if (X509_set_issuer_name(cert.get(), name) != 1 || X509_set_pubkey(cert.get(), pkey) != 1)
        return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("cannot build CA"));

    // RFC 5280 sections 4.2.1.9, 4.2.1.3, 4.2.1.2, 4.2.1.1.
    for (const auto &[nid, value] : {std::pair{NID_basic_constraints, "critical,CA:TRUE"},
                                     std::pair{NID_key_usage, "critical,keyCertSign,cRLSign"},
                                     std::pair{NID_subject_key_identifier, "hash"},
                                     std::pair{NID_authority_key_identifier, "keyid:always"}}) {
        if (auto r = addExtension(cert.get(), cert.get(), nid, value); !r)
            return r.error();
    }
    if (X509_sign(cert.get(), pkey, EVP_sha256()) <= 0)
        return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("cannot sign CA"));

    auto d = std::make_shared<CertificateAuthorityPrivate>();
    d->certificatePem = toPem(cert.get());
    d->certificate = std::move(cert);
    d->key = std::move(*key);
    qCInfo(lcCrypto) << "created certificate authority" << commonName;
    return CertificateAuthority(std::move(d));
}

Result<CertificateAuthority> CertificateAuthority::fromPem(const QByteArray &certificatePem,
                                                           const QByteArray &keyPem)
{
    auto cert = parseCertificate(certificatePem);
    if (!cert)
        return cert.error();
    auto key = PrivateKey::fromPem(keyPem);
    if (!key)
        return key.error();
    ERR_clear_error();
    // Fail closed: the key must belong to the certificate, which must be a self-signed CA.
    if (X509_check_private_key(cert->get(), PrivateKeyAccess::pkey(*key)) != 1)
        return openSslError(ErrorCode::CaInvalid,
                            QStringLiteral("CA key does not match certificate"));
    if (X509_check_ca(cert->get()) < 1)
        return makeError(ErrorCode::CaInvalid, QStringLiteral("certificate is not a CA"));
    if (X509_self_signed(cert->get(), 1) != 1)
        return openSslError(ErrorCode::CaInvalid,
                            QStringLiteral("CA certificate is not self-signed"));

    auto d = std::make_shared<CertificateAuthorityPrivate>();
    d->certificatePem = toPem(cert->get());
    d->certificate = std::move(*cert);
    d->key = std::move(*key);
    return CertificateAuthority(std::move(d));
}

Result<CertificateAuthority> CertificateAuthority::loadOrCreate(const QString &directory,
                                                                const QString &commonName,
                                                                const QDateTime &now,
                                                                KeyType keyType)
{
    if (auto r = Platform::ensurePrivateDirectory(directory); !r)
        return r.error();
    const QDir dir(directory);
    const QString certPath = dir.filePath(QLatin1String(CaCertificateFile));
    const QString keyPath = dir.filePath(QLatin1String(CaKeyFile));
    const bool haveCert = QFileInfo::exists(certPath);
    const bool haveKey = QFileInfo::exists(keyPath);

    if (haveCert && haveKey) {
        // Whoever wrote the key signs client certificates the cluster believes (system:masters
        // among them): refused unless this user or root owns it and nobody else may read it
        // (fail closed).
        if (auto r = Platform::checkPrivateFile(keyPath); !r)
            return r.error();
        auto certPem = readSmallFile(certPath, MaxCaPemSize);
        if (!certPem)
            return certPem.error();
        auto keyPem = readSmallFile(keyPath, MaxCaPemSize);
        if (!keyPem)
            return keyPem.error();
        auto ca = fromPem(*certPem, *keyPem);
        wipe(*keyPem);
        if (!ca)
            return makeError(ca.error().code,
                             QStringLiteral("%1: %2").arg(directory, ca.error().message));
        qCInfo(lcCrypto) << "loaded certificate authority from" << directory;
        return ca;
    }
    if (haveCert || haveKey) {
        // Fail closed: never replace half of an existing CA.
        return makeError(ErrorCode::CaIncomplete,
                         QStringLiteral("%1 holds only one of ca.crt and ca.key").arg(directory));
    }

    auto ca = create(commonName, keyType, now);
    if (!ca)
        return ca.error();
    // Key first: a crash in between leaves an incomplete CA that is reported, not reused.
    if (auto r = ca->key().saveFile(keyPath); !r)
        return r.error();
    if (auto r = Platform::writeFileAtomically(certPath, ca->certificatePem(), 0644); !r)
        return r.error();
    qCInfo(lcCrypto) << "stored new certificate authority in" << directory;
    return ca;
}

Result<IssuedCertificate> CertificateAuthority::issue(const CertificateRequest &request) const
{
    if (request.commonName.trimmed().isEmpty())
        return makeError(ErrorCode::CertInvalidRequest, QStringLiteral("commonName is required"),
                         400);
    auto sans = normalizedSans(request.dnsNames, request.ipAddresses);
    if (!sans)
        return sans.error();
    auto key = PrivateKey::generate(request.keyType);
    if (!key)
        return key.error();

    ERR_clear_error();
    X509 *ca = m_d->certificate.get();
    X509Ptr cert(X509_new());
    if (!cert || X509_set_version(cert.get(), X509_VERSION_3) != 1)
        return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("out of memory"));
    // Never past the CA's own end: a chain that is not valid then is no use to anyone, and a
    // date that says otherwise misleads whoever plans by it.
    const QDateTime caEnd = sslCertificate().expiryDate();
    const QDateTime notAfter =
        caEnd.isValid() && request.notAfter > caEnd ? caEnd : request.notAfter;
    if (auto r = setSerialAndValidity(cert.get(), request.notBefore, notAfter); !r)
        return r.error();

    X509_NAME *name = X509_get_subject_name(cert.get());
    if (auto r = addNameEntry(name, "CN", request.commonName.trimmed()); !r)
        return r.error();
    for (const QString &organization : request.organizations) {
        if (organization.trimmed().isEmpty())
            return makeError(ErrorCode::CertInvalidRequest, QStringLiteral("empty organization"),
                             400);
        if (auto r = addNameEntry(name, "O", organization.trimmed()); !r)
            return r.error();
    }
    if (X509_set_issuer_name(cert.get(), X509_get_subject_name(ca)) != 1 ||
        X509_set_pubkey(cert.get(), PrivateKeyAccess::pkey(*key)) != 1)
        return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("cannot build certificate"));

    const char *keyUsage =
        key->isRsa() ? "critical,digitalSignature,keyEncipherment" : "critical,digitalSignature";
    const char *extendedKeyUsage = request.usage == CertificateRequest::ClientAuth ? "clientAuth"
                                   : request.usage == CertificateRequest::ServerAuth
                                       ? "serverAuth"
                                       : "serverAuth,clientAuth";
    for (const auto &[nid, value] :
         {std::pair{NID_basic_constraints, "critical,CA:FALSE"}, std::pair{NID_key_usage, keyUsage},
          std::pair{NID_ext_key_usage, extendedKeyUsage},
          std::pair{NID_subject_key_identifier, "hash"},
          std::pair{NID_authority_key_identifier, "keyid:always"}}) {
        if (auto r = addExtension(cert.get(), ca, nid, value); !r)
            return r.error();
    }
    if (auto r = addSubjectAltNames(cert.get(), *sans); !r)
        return r.error();

    if (X509_sign(cert.get(), PrivateKeyAccess::pkey(m_d->key), EVP_sha256()) <= 0)
        return openSslError(ErrorCode::CertIssueFailed, QStringLiteral("cannot sign certificate"));

    qCInfo(lcCrypto) << "issued certificate" << describe(cert.get()) << "usage" << request.usage
                     << "until" << request.notAfter.toUTC().toString(Qt::ISODate);
    IssuedCertificate issued;
    issued.certificatePem = toPem(cert.get());
    issued.key = std::move(*key);
    return issued;
}

Result<void> CertificateAuthority::verifyCertificate(const QByteArray &certificatePem,
                                                     CertificateRequest::Usage usage) const
{
    auto cert = parseCertificate(certificatePem);
    if (!cert)
        return cert.error();
    if (usage != CertificateRequest::ClientAuth) {
        if (auto r = verifyChain(m_d->certificate.get(), cert->get(), X509_PURPOSE_SSL_SERVER); !r)
            return r;
    }
    if (usage != CertificateRequest::ServerAuth) {
        if (auto r = verifyChain(m_d->certificate.get(), cert->get(), X509_PURPOSE_SSL_CLIENT); !r)
            return r;
    }
    return {};
}

Result<IssuedCertificate>
CertificateAuthority::loadOrIssueServerCertificate(const QString &directory, const QDateTime &now,
                                                   const QStringList &extraDnsNames,
                                                   const QStringList &extraIps) const
{
    QStringList dnsNames{QStringLiteral("localhost")};
    const QString host = QSysInfo::machineHostName();
    if (normalizedDnsName(host))
        dnsNames << host;
    else
        qCDebug(lcCrypto) << "host name" << host << "is not a valid DNS name; not in the SANs";
    dnsNames << QStringLiteral("kubernetes") << QStringLiteral("kubernetes.default")
             << QStringLiteral("kubernetes.default.svc")
             << QStringLiteral("kubernetes.default.svc.cluster.local") << extraDnsNames;
    const QStringList ips = QStringList{QStringLiteral("127.0.0.1"), QStringLiteral("::1"),
                                        QStringLiteral("10.96.0.1")} +
                            extraIps;
    auto required = normalizedSans(dnsNames, ips);
    if (!required)
        return required.error();

    if (auto r = Platform::ensurePrivateDirectory(directory); !r)
        return r.error();
    const QDir dir(directory);
    const QString certPath = dir.filePath(QLatin1String(ServerCertificateFile));
    const QString keyPath = dir.filePath(QLatin1String(ServerKeyFile));

    // A stored key that others may read, or that another user owns, is not used again: whoever
    // read it could pose as this server (the cluster listener and the admin listener, whose
    // certificate the console and the CLI pin). A new key and certificate replace it, and pinned
    // fingerprints change, as they should. (ca.key in that state stops the start: it cannot be
    // replaced without invalidating every certificate it signed.)
    bool keyExposed = false;
    // The stored certificate and key when still usable, otherwise an Error saying why not.
    auto reuse = [&]() -> Result<IssuedCertificate> {
        if (!QFileInfo::exists(certPath) || !QFileInfo::exists(keyPath))
            return makeError(ErrorCode::Io, QStringLiteral("no stored server certificate"));
        if (auto r = Platform::checkPrivateFile(keyPath); !r) {
            keyExposed = true;
            return r.error();
        }
        auto certPem = readSmallFile(certPath, MaxCaPemSize);
        if (!certPem)
            return certPem.error();
        auto cert = parseCertificate(*certPem);
        if (!cert)
            return cert.error();
        auto key = PrivateKey::loadFile(keyPath);
        if (!key)
            return key.error();
        if (X509_check_private_key(cert->get(), PrivateKeyAccess::pkey(*key)) != 1) {
            ERR_clear_error();
            return makeError(ErrorCode::CertInvalid, QStringLiteral("key does not match"));
        }
        if (auto r = verifyChain(m_d->certificate.get(), cert->get(), X509_PURPOSE_SSL_SERVER); !r)
            return r.error();
        time_t renewAt = time_t(now.addDays(RenewBeforeDays).toSecsSinceEpoch());
        if (X509_cmp_time(X509_get0_notAfter(cert->get()), &renewAt) != 1)
            return makeError(ErrorCode::CertInvalid,
                             QStringLiteral("expires within %1 days").arg(RenewBeforeDays));
        const SubjectAltNames present = certificateSans(cert->get());
        for (const QString &dns : required->dns) {
            if (!present.dns.contains(dns))
                return makeError(ErrorCode::CertInvalid, QStringLiteral("lacks SAN %1").arg(dns));
        }
        for (const QHostAddress &ip : required->ips) {
            if (!present.ips.contains(ip))
                return makeError(ErrorCode::CertInvalid,
                                 QStringLiteral("lacks SAN %1").arg(ip.toString()));
        }
        IssuedCertificate issued;
        issued.certificatePem = *certPem;
        issued.key = std::move(*key);
        return issued;
    };

    auto existing = reuse();
    if (existing) {
        qCDebug(lcCrypto) << "reusing server certificate in" << directory;
        return existing;
    }
    if (keyExposed)
        qCWarning(lcCrypto).noquote()
            << "the stored server key is replaced by a new one, with a new certificate, "
               "because"
            << existing.error().message
            << "(clients that pinned the old certificate will refuse the new one)";
    else
        qCInfo(lcCrypto) << "issuing server certificate in" << directory
                         << "because:" << existing.error().message;

    CertificateRequest request;
    request.commonName = QStringLiteral("gatehouse");
    request.dnsNames = required->dns;
    for (const QHostAddress &ip : required->ips)
        request.ipAddresses << ip.toString();
    request.usage = CertificateRequest::ServerAuth;
    request.keyType = KeyType::EcP256;
    request.setValidity(now);
    auto issued = issue(request);
    if (!issued)
        return issued.error();
    if (auto r = issued->key.saveFile(keyPath); !r)
        return r.error();
    if (auto r = Platform::writeFileAtomically(certPath, issued->certificatePem, 0600); !r)
        return r.error();
    return issued;
}

QByteArray CertificateAuthority::certificatePem() const
{
    return m_d->certificatePem;
}

QSslCertificate CertificateAuthority::sslCertificate() const
{
    return QSslCertificate(m_d->certificatePem, QSsl::Pem);
}

PrivateKey CertificateAuthority::key() const
{
    return m_d->key;
}

} // namespace Gatehouse::Crypto
