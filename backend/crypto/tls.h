#pragma once

#include "core/result.h"
#include "core/tls.h"

#include <QList>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>

#include <memory>

namespace Gatehouse::Crypto {

// TLS on OpenSSL directly (memory BIOs, one SSL_CTX per engine), for the HTTP server's
// listeners and for clients in tests and benchmarks. It replaces QSslSocket on the server
// side: Qt 6.4's OpenSSL backend copies and re-parses every certificate of every handshake
// (about 60 % of a handshake's CPU under OpenSSL 3.0), see docs/cluster.md "TLS".
//
// Server: TLS 1.2 or 1.3; no session tickets and no session cache (OpenSSL 3.0 encodes,
// decodes and re-encodes a session with its client certificate for every ticket); a client
// certificate is requested when clientCaCertificates is non-empty and never required. A
// certificate that does not verify (foreign CA, expired, not yet valid, not for clientAuth)
// still completes the handshake, so that the server can answer 401 in its own words; the
// connection's peerIdentity() is Invalid with the reasons, never the subject.
Result<std::shared_ptr<const Core::TlsEngine>> tlsServerEngine(const Core::TlsSettings &settings);

struct TlsClientSettings
{
    QList<QSslCertificate> caCertificates; // the server's certificate must verify against these
    QString serverName;                    // checked against the certificate; SNI for a name
    QSslCertificate certificate;           // optional client certificate
    QSslKey privateKey;
};

// Client connections make a full handshake each time (no session resumption).

Result<std::shared_ptr<const Core::TlsEngine>> tlsClientEngine(const TlsClientSettings &settings);

} // namespace Gatehouse::Crypto
