#pragma once

#include "core/result.h"
#include "crypto/privatekey.h"

#include <QByteArray>
#include <QDateTime>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>
#include <QStringList>

#include <memory>

namespace Gatehouse::Crypto {

struct CertificateRequest
{
    enum Usage { ClientAuth, ServerAuth, ServerAndClientAuth };

    QString commonName;        // required
    QStringList organizations; // one O RDN each, in order
    QStringList dnsNames;      // subjectAltName dNSName; "*.example.org" allowed
    QStringList ipAddresses;   // subjectAltName iPAddress, IPv4 or IPv6
    // Required (issue() refuses a request without them): crypto has no clock, so the caller
    // computes them from its own; setValidity() gives the usual ones.
    QDateTime notBefore;
    QDateTime notAfter;
    Usage usage = ServerAuth;
    KeyType keyType = KeyType::EcP256;

    // From five minutes before now (clock skew between the parties) for `days` days.
    void setValidity(const QDateTime &now, int days = 365)
    {
        notBefore = now.addSecs(-5 * 60);
        notAfter = now.addDays(days);
    }
};

struct IssuedCertificate
{
    QByteArray certificatePem;
    PrivateKey key;

    QSslCertificate sslCertificate() const;
    QSslKey sslKey() const;
};

class CertificateAuthorityPrivate;

// A small X.509 certificate authority (RFC 5280) for mTLS between Gatehouse parts:
// a self-signed root that issues server and client certificates. Copyable value.
class CertificateAuthority
{
public:
    ~CertificateAuthority();
    CertificateAuthority(const CertificateAuthority &);
    CertificateAuthority &operator=(const CertificateAuthority &);
    CertificateAuthority(CertificateAuthority &&) noexcept;
    CertificateAuthority &operator=(CertificateAuthority &&) noexcept;

    // A new self-signed root: basicConstraints critical CA:TRUE, keyUsage critical
    // keyCertSign+cRLSign, SHA-256; valid from five minutes before now for validityDays.
    static Result<CertificateAuthority> create(const QString &commonName, KeyType keyType,
                                               const QDateTime &now, int validityDays = 3650);

    // Loads ca.crt (0644) + ca.key (0600) from directory, or creates and stores a new CA
    // there (the directory is created 0700 if needed). An existing but incomplete or
    // inconsistent CA is an Error and is never overwritten. now: the caller's clock, for a new CA.
    static Result<CertificateAuthority> loadOrCreate(const QString &directory,
                                                     const QString &commonName,
                                                     const QDateTime &now,
                                                     KeyType keyType = KeyType::EcP256);

    // Loads a CA from PEM (certificate and its private key; they must match).
    static Result<CertificateAuthority> fromPem(const QByteArray &certificatePem,
                                                const QByteArray &keyPem);

    // Issues a leaf certificate with a fresh key (see CertificateRequest).
    Result<IssuedCertificate> issue(const CertificateRequest &request) const;

    // server.crt + server.key (both 0600) in directory: loaded when still good,
    // otherwise (re)issued. SANs: localhost, 127.0.0.1, ::1, the machine host name,
    // kubernetes, kubernetes.default, kubernetes.default.svc,
    // kubernetes.default.svc.cluster.local, 10.96.0.1 (the kubernetes service), plus the extras.
    // Re-issued when missing, unreadable, not issued by this CA, missing a required SAN or expiring
    // within 30 days of now (the caller's clock); a new one is valid for a year from now.
    Result<IssuedCertificate> loadOrIssueServerCertificate(const QString &directory,
                                                           const QDateTime &now,
                                                           const QStringList &extraDnsNames = {},
                                                           const QStringList &extraIps = {}) const;

    // Verifies that certificatePem chains to this CA, is valid now and allows usage
    // (for ServerAndClientAuth, both purposes).
    Result<void> verifyCertificate(const QByteArray &certificatePem,
                                   CertificateRequest::Usage usage) const;

    QByteArray certificatePem() const;
    QSslCertificate sslCertificate() const;
    PrivateKey key() const;

private:
    explicit CertificateAuthority(std::shared_ptr<const CertificateAuthorityPrivate> d);

    std::shared_ptr<const CertificateAuthorityPrivate> m_d;
};

} // namespace Gatehouse::Crypto
