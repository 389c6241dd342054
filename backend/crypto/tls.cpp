#include "crypto/tls.h"

#include "crypto/errorcodes.h"
#include "crypto/opensslutil_p.h"
#include "crypto/privatekey_p.h"

#include <QDateTime>
#include <QHash>
#include <QHostAddress>
#include <QStringList>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <ctime>
#include <limits>
#include <mutex>

namespace Gatehouse::Crypto {

using namespace Detail;

namespace {

using SslCtxPtr = std::unique_ptr<SSL_CTX, FnDeleter<SSL_CTX_free>>;
using SslPtr = std::unique_ptr<SSL, FnDeleter<SSL_free>>;

constexpr int ReadChunk = 16 * 1024;
constexpr int MaxVerifyErrors = 8;

// The slot of an SSL object that points back to its connection (for the verify callback).
int connectionIndex()
{
    static const int index = SSL_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
    return index;
}

Result<X509Ptr> toX509(const QSslCertificate &certificate)
{
    const QByteArray der = certificate.toDer();
    const auto *p = reinterpret_cast<const unsigned char *>(der.constData());
    X509Ptr x509(der.isEmpty() ? nullptr : d2i_X509(nullptr, &p, long(der.size())));
    if (!x509)
        return openSslError(ErrorCode::CertInvalid, QStringLiteral("not a certificate"));
    return x509;
}

QString utf8Entry(const X509_NAME_ENTRY *entry)
{
    unsigned char *utf8 = nullptr;
    const int n = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(entry));
    if (n < 0)
        return {};
    QString text = QString::fromUtf8(reinterpret_cast<const char *>(utf8), n);
    OPENSSL_free(utf8);
    return text;
}

class OpenSslConnection final : public Core::TlsConnection
{
public:
    OpenSslConnection(SslPtr ssl, bool server) : m_ssl(std::move(ssl)), m_server(server)
    {
        m_in = BIO_new(BIO_s_mem());
        m_out = BIO_new(BIO_s_mem());
        // An empty input BIO means "more to come", not end of file.
        BIO_set_mem_eof_return(m_in, -1);
        SSL_set_bio(m_ssl.get(), m_in, m_out); // the SSL object owns both from here
        SSL_set_ex_data(m_ssl.get(), connectionIndex(), this);
        if (server)
            SSL_set_accept_state(m_ssl.get());
        else
            SSL_set_connect_state(m_ssl.get());
    }

    void receive(const char *data, qsizetype size) override
    {
        while (size > 0) {
            const int chunk = int(std::min<qsizetype>(size, INT_MAX));
            const int written = BIO_write(m_in, data, chunk);
            if (written <= 0) {
                fail(QStringLiteral("out of memory"));
                return;
            }
            data += written;
            size -= written;
        }
    }

    State advance(QByteArray &plaintext) override
    {
        if (m_state == State::Handshaking) {
            ERR_clear_error();
            const int r = SSL_do_handshake(m_ssl.get());
            if (r != 1) {
                const int e = SSL_get_error(m_ssl.get(), r);
                if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE)
                    failWith(e);
                return m_state;
            }
            m_state = State::Established;
            if (m_server)
                settleIdentity();
        }
        // After our own close_notify the peer may still send (its answer, its close_notify).
        if (m_state == State::Failed || m_state == State::Handshaking || m_peerClosed)
            return m_state;
        // Records that arrived with the handshake's last flight (a request right behind the
        // client's Finished) are read here too.
        while (BIO_ctrl_pending(m_in) > 0 || SSL_pending(m_ssl.get()) > 0) {
            const qsizetype old = plaintext.size();
            plaintext.resize(old + ReadChunk);
            size_t n = 0;
            ERR_clear_error();
            const int r = SSL_read_ex(m_ssl.get(), plaintext.data() + old, ReadChunk, &n);
            plaintext.resize(old + (r == 1 ? qsizetype(n) : 0));
            if (r == 1)
                continue;
            const int e = SSL_get_error(m_ssl.get(), r);
            if (e == SSL_ERROR_ZERO_RETURN) {
                m_peerClosed = true; // the peer's close_notify: it sends no more, we may
                m_state = State::Closed;
            } else if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) {
                failWith(e);
            }
            break;
        }
        return m_state;
    }

    // Also after the peer's close_notify (answers to what came before it), never after ours.
    void send(const char *data, qsizetype size) override
    {
        if (m_sentClose || (m_state != State::Established && !m_peerClosed))
            return;
        while (size > 0) {
            size_t n = 0;
            ERR_clear_error();
            // A memory BIO takes everything: a write is never partial or retried.
            if (SSL_write_ex(m_ssl.get(), data, size_t(size), &n) != 1) {
                failWith(SSL_get_error(m_ssl.get(), 0));
                return;
            }
            data += n;
            size -= qsizetype(n);
        }
    }

    void close() override
    {
        if (!m_sentClose && (m_state == State::Established || m_peerClosed)) {
            ERR_clear_error();
            SSL_shutdown(m_ssl.get()); // queues close_notify; the peer's answer is not awaited
            m_sentClose = true;
            m_state = State::Closed;
        }
    }

    QByteArray takeOutgoing() override
    {
        const size_t pending = BIO_ctrl_pending(m_out);
        if (pending == 0)
            return {};
        QByteArray out(qsizetype(pending), Qt::Uninitialized);
        const int n = BIO_read(m_out, out.data(), int(std::min<size_t>(pending, INT_MAX)));
        out.resize(std::max(n, 0));
        return out;
    }

    State state() const override { return m_state; }
    Core::PeerIdentity peerIdentity() const override { return m_identity; }
    QString errorString() const override { return m_error; }

    QString description() const override
    {
        const SSL_CIPHER *cipher = SSL_get_current_cipher(m_ssl.get());
        return QString::fromLatin1(SSL_get_version(m_ssl.get())) + QLatin1Char(' ') +
               QString::fromLatin1(cipher ? SSL_CIPHER_get_name(cipher) : "(none)");
    }

    bool hasVerifyErrors() const { return !m_verifyErrors.isEmpty(); }

    void noteVerifyError(int error)
    {
        if (m_verifyErrors.size() < MaxVerifyErrors && !m_verifyErrors.contains(error))
            m_verifyErrors.append(error);
    }

private:
    void failWith(int sslError)
    {
        QString reason = takeOpenSslErrors();
        if (reason.isEmpty())
            reason = sslError == SSL_ERROR_SYSCALL ? QStringLiteral("unexpected end of data")
                                                   : QStringLiteral("TLS error %1").arg(sslError);
        fail(reason);
    }

    void fail(const QString &reason)
    {
        m_state = State::Failed;
        m_error = reason;
    }

    // Fail closed: a certificate that did not verify gives an Invalid identity with the
    // reasons, never its subject.
    void settleIdentity()
    {
        X509 *peer = SSL_get0_peer_certificate(m_ssl.get());
        if (!peer)
            return; // State::None
        const long result = SSL_get_verify_result(m_ssl.get());
        if (result != X509_V_OK && !m_verifyErrors.contains(int(result)))
            noteVerifyError(int(result));
        if (!m_verifyErrors.isEmpty()) {
            QStringList reasons;
            for (int e : std::as_const(m_verifyErrors))
                reasons.append(QString::fromLatin1(X509_verify_cert_error_string(e)));
            m_identity.state = Core::PeerIdentity::State::Invalid;
            m_identity.invalidReason = reasons.join(QStringLiteral("; "));
            return;
        }
        m_identity.state = Core::PeerIdentity::State::Verified;
        // When the verified chain stops being valid: its earliest notAfter (the leaf's, or a
        // CA's before it). Requests on this connection after it are refused (PeerIdentity::at).
        const STACK_OF(X509) *chain = SSL_get0_verified_chain(m_ssl.get());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0, n = chain ? sk_X509_num(chain) : 0; i < std::max(n, 1); ++i) {
            const X509 *c = chain && n > 0 ? sk_X509_value(chain, i) : peer;
            int days = 0;
            int seconds = 0;
            if (ASN1_TIME_diff(&days, &seconds, nullptr, X509_get0_notAfter(c)) != 1)
                continue;
            const qint64 at = now + (qint64(days) * 86'400 + seconds) * 1000;
            if (m_identity.notAfterMs == 0 || at < m_identity.notAfterMs)
                m_identity.notAfterMs = std::max<qint64>(at, 1);
        }
        const X509_NAME *subject = X509_get_subject_name(peer);
        // Certificate order; of several CNs the last counts, as in Go's pkix.Name (and Qt).
        for (int i = 0, n = X509_NAME_entry_count(subject); i < n; ++i) {
            const X509_NAME_ENTRY *entry = X509_NAME_get_entry(subject, i);
            const int nid = OBJ_obj2nid(X509_NAME_ENTRY_get_object(entry));
            if (nid == NID_commonName)
                m_identity.commonName = utf8Entry(entry);
            else if (nid == NID_organizationName)
                m_identity.organizations.append(utf8Entry(entry));
        }
    }

    SslPtr m_ssl;
    BIO *m_in = nullptr;  // owned by m_ssl
    BIO *m_out = nullptr; // owned by m_ssl
    bool m_server;
    State m_state = State::Handshaking;
    bool m_sentClose = false;
    bool m_peerClosed = false;
    Core::PeerIdentity m_identity;
    QList<int> m_verifyErrors;
    QString m_error;
};

// Server side: a client certificate that does not verify is noted, and its verification stops
// there: nothing after the first error is checked (a stranger's chain of self-made CAs with
// 16384-bit keys made every signature in it checked, 18 times a handshake's CPU on the thread
// that serves every listener). The handshake still goes on (verifyWithCache), the server
// answers 401 itself, and the connection decides from the noted error.
int noteAndStop(int ok, X509_STORE_CTX *store)
{
    if (ok)
        return 1;
    auto *ssl =
        static_cast<SSL *>(X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()));
    auto *connection =
        ssl ? static_cast<OpenSslConnection *>(SSL_get_ex_data(ssl, connectionIndex())) : nullptr;
    if (connection)
        connection->noteVerifyError(X509_STORE_CTX_get_error(store));
    return 0;
}

// ALPN: HTTP/1.1 when the client offers it; otherwise no protocol is named (clients that
// offer only h2 then fail on their own terms rather than on a handshake alert).
int selectHttp11(SSL *, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
                 unsigned int inlen, void *)
{
    static const unsigned char http11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
    unsigned char *selected = nullptr;
    if (SSL_select_next_proto(&selected, outlen, http11, sizeof http11, in, inlen) !=
        OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_NOACK;
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

// Client certificates that verified recently, by the SHA-256 of their DER: a client that
// reconnects (kubelets, controllers, kubectl in a loop) skips the chain verification, about
// 15 % of a handshake's CPU. Proof of possession (CertificateVerify) still happens on every
// handshake; only clean successes are kept, for at most a minute (monotonic clock) and never
// past the earliest notAfter of the verified chain; the trusted CAs of an engine never change.
// The key covers every certificate the client sent.
class VerifiedCache
{
public:
    static constexpr qint64 TtlSeconds = 60;
    static constexpr qsizetype MaxEntries = 4096;

    // The SHA-256 digests of the certificates the client sent, leaf first; empty on error.
    static QByteArray keyOf(X509 *leaf, const STACK_OF(X509) * sent)
    {
        QByteArray key;
        auto add = [&key](X509 *cert) {
            unsigned char md[EVP_MAX_MD_SIZE];
            unsigned int len = 0;
            if (X509_digest(cert, EVP_sha256(), md, &len) != 1)
                return false;
            key.append(reinterpret_cast<const char *>(md), int(len));
            return true;
        };
        if (!add(leaf))
            return {};
        for (int i = 0, n = sent ? sk_X509_num(sent) : 0; i < n; ++i) {
            X509 *cert = sk_X509_value(sent, i);
            if (cert != leaf && X509_cmp(cert, leaf) != 0 && !add(cert))
                return {};
        }
        return key;
    }

    bool contains(const QByteArray &key)
    {
        const qint64 nowWall = qint64(time(nullptr));
        const auto nowSteady = std::chrono::steady_clock::now();
        std::lock_guard lock(m_mutex);
        const auto it = m_entries.constFind(key);
        return it != m_entries.cend() && it->until > nowSteady && it->notAfter > nowWall;
    }

    // `chain`: the verified chain, leaf to trust anchor; the entry ends with the first of them.
    void insert(const QByteArray &key, const STACK_OF(X509) * chain)
    {
        Entry entry;
        entry.until = std::chrono::steady_clock::now() + std::chrono::seconds(TtlSeconds);
        entry.notAfter = std::numeric_limits<qint64>::max();
        for (int i = 0, n = chain ? sk_X509_num(chain) : 0; i < n; ++i) {
            struct tm notAfter = {};
            if (ASN1_TIME_to_tm(X509_get0_notAfter(sk_X509_value(chain, i)), &notAfter) != 1)
                return;
            // UTC broken-down time to seconds, portably (timegm is POSIX only).
            const QDateTime utc(
                QDate(notAfter.tm_year + 1900, notAfter.tm_mon + 1, notAfter.tm_mday),
                QTime(notAfter.tm_hour, notAfter.tm_min, notAfter.tm_sec), Qt::UTC);
            entry.notAfter = std::min<qint64>(entry.notAfter, utc.toSecsSinceEpoch());
        }
        if (!chain || sk_X509_num(chain) == 0)
            return;
        std::lock_guard lock(m_mutex);
        if (m_entries.size() >= MaxEntries)
            m_entries.clear();
        m_entries.insert(key, entry);
    }

private:
    struct Entry
    {
        std::chrono::steady_clock::time_point until; // a minute, whatever the wall clock does
        qint64 notAfter = 0; // seconds since the epoch: the chain's earliest notAfter
    };
    std::mutex m_mutex;
    QHash<QByteArray, Entry> m_entries;
};

int verifyWithCache(X509_STORE_CTX *store, void *arg)
{
    auto *cache = static_cast<VerifiedCache *>(arg);
    X509 *leaf = X509_STORE_CTX_get0_cert(store);
    const STACK_OF(X509) *sent = X509_STORE_CTX_get0_untrusted(store);
    const QByteArray key =
        leaf && (!sent || sk_X509_num(sent) <= 8) ? VerifiedCache::keyOf(leaf, sent) : QByteArray();
    if (!key.isEmpty() && cache->contains(key)) {
        X509_STORE_CTX_set_error(store, X509_V_OK);
        return 1;
    }
    const int ok = X509_verify_cert(store);
    auto *ssl =
        static_cast<SSL *>(X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()));
    auto *connection =
        ssl ? static_cast<OpenSslConnection *>(SSL_get_ex_data(ssl, connectionIndex())) : nullptr;
    if (ok != 1) {
        // Stopped at its first error (noteAndStop): the handshake goes on without an identity,
        // the error noted (and kept as the verify result), so that the answer is a 401.
        if (!connection)
            return 0;
        if (!connection->hasVerifyErrors())
            connection->noteVerifyError(X509_STORE_CTX_get_error(store) != X509_V_OK
                                            ? X509_STORE_CTX_get_error(store)
                                            : X509_V_ERR_UNSPECIFIED);
        return 1;
    }
    // Kept only when nothing at all was wrong.
    if (X509_STORE_CTX_get_error(store) == X509_V_OK && connection &&
        !connection->hasVerifyErrors() && !key.isEmpty())
        cache->insert(key, X509_STORE_CTX_get0_chain(store));
    return ok;
}

class OpenSslEngine final : public Core::TlsEngine
{
public:
    OpenSslEngine(SslCtxPtr ctx, bool server, QString serverName)
        : m_ctx(std::move(ctx)), m_server(server), m_serverName(std::move(serverName))
    {}

    std::unique_ptr<Core::TlsConnection> newConnection() const override
    {
        SslPtr ssl(SSL_new(m_ctx.get()));
        if (!ssl)
            return nullptr;
        if (!m_server && !m_serverName.isEmpty()) {
            // The name is checked against the certificate, or there is no connection.
            const QByteArray name = m_serverName.toUtf8();
            const bool named = QHostAddress(m_serverName).isNull()
                                   ? SSL_set_tlsext_host_name(ssl.get(), name.constData()) == 1 &&
                                         SSL_set1_host(ssl.get(), name.constData()) == 1
                                   : X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl.get()),
                                                                   name.constData()) == 1;
            if (!named)
                return nullptr;
        }
        return std::make_unique<OpenSslConnection>(std::move(ssl), m_server);
    }

private:
    SslCtxPtr m_ctx;
    bool m_server;
    QString m_serverName;

public:
    VerifiedCache verified; // server side, when client certificates are requested
};

Result<void> useIdentity(SSL_CTX *ctx, const QSslCertificate &certificate,
                         const QList<QSslCertificate> &chain, const QSslKey &key)
{
    auto leaf = toX509(certificate);
    if (!leaf)
        return leaf.error();
    if (SSL_CTX_use_certificate(ctx, leaf->get()) != 1)
        return openSslError(ErrorCode::CertInvalid, QStringLiteral("unusable TLS certificate"));
    for (const QSslCertificate &c : chain) {
        if (c == certificate)
            continue;
        auto x509 = toX509(c);
        if (!x509)
            return x509.error();
        if (SSL_CTX_add1_chain_cert(ctx, x509->get()) != 1)
            return openSslError(ErrorCode::CertInvalid,
                                QStringLiteral("unusable TLS chain certificate"));
    }
    QByteArray pem = key.toPem();
    auto privateKey = PrivateKey::fromPem(pem);
    wipe(pem);
    if (!privateKey)
        return privateKey.error();
    if (SSL_CTX_use_PrivateKey(ctx, PrivateKeyAccess::pkey(*privateKey)) != 1 ||
        SSL_CTX_check_private_key(ctx) != 1)
        return openSslError(ErrorCode::KeyInvalid,
                            QStringLiteral("the TLS private key does not match the certificate"));
    return {};
}

Result<void> trust(SSL_CTX *ctx, const QList<QSslCertificate> &authorities)
{
    X509_STORE *store = SSL_CTX_get_cert_store(ctx);
    for (const QSslCertificate &c : authorities) {
        auto x509 = toX509(c);
        if (!x509)
            return x509.error();
        if (X509_STORE_add_cert(store, x509->get()) != 1)
            return openSslError(ErrorCode::CertInvalid,
                                QStringLiteral("unusable certificate authority"));
    }
    return {};
}

SslCtxPtr newContext(const SSL_METHOD *method)
{
    SslCtxPtr ctx(SSL_CTX_new(method));
    if (!ctx)
        return ctx;
    SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
    SSL_CTX_set_session_cache_mode(ctx.get(), SSL_SESS_CACHE_OFF);
    SSL_CTX_set_options(ctx.get(), SSL_OP_NO_TICKET | SSL_OP_NO_RENEGOTIATION);
    // Only the configured chain is sent, as kube-apiserver does (the leaf, when no chain is
    // configured). OpenSSL would otherwise build it from the trust store (verifying the own
    // certificate again) in every handshake, and the peer would parse a root it already has.
    SSL_CTX_set_mode(ctx.get(), SSL_MODE_NO_AUTO_CHAIN);
    return ctx;
}

} // namespace

Result<std::shared_ptr<const Core::TlsEngine>> tlsServerEngine(const Core::TlsSettings &settings)
{
    ERR_clear_error();
    SslCtxPtr ctx = newContext(TLS_server_method());
    if (!ctx)
        return openSslError(ErrorCode::Internal, QStringLiteral("cannot create a TLS context"));
    SSL_CTX_set_options(ctx.get(), SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_num_tickets(ctx.get(), 0);
    static const unsigned char sessionContext[] = "gatehouse";
    SSL_CTX_set_session_id_context(ctx.get(), sessionContext, sizeof sessionContext - 1);
    SSL_CTX_set_alpn_select_cb(ctx.get(), selectHttp11, nullptr);
    if (auto r = useIdentity(ctx.get(), settings.certificate, settings.chain, settings.privateKey);
        !r)
        return r.error();
    if (!settings.clientCaCertificates.isEmpty()) {
        if (auto r = trust(ctx.get(), settings.clientCaCertificates); !r)
            return r.error();
        // Requested, not required: without a certificate the request is anonymous. No CA
        // names are sent, so a client offers the certificate it has (and a foreign one is
        // answered 401, not silently dropped).
        SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, noteAndStop);
        // A client's chain is its certificate and a few CAs: at most 64 KiB (Go's whole
        // handshake message, as kube-apiserver reads it) and 10 certificates deep.
        SSL_CTX_set_max_cert_list(ctx.get(), 64 * 1024);
        SSL_CTX_set_verify_depth(ctx.get(), 10);
    }
    SSL_CTX *raw = ctx.get();
    auto engine = std::make_shared<OpenSslEngine>(std::move(ctx), true, QString());
    if (!settings.clientCaCertificates.isEmpty())
        SSL_CTX_set_cert_verify_callback(raw, verifyWithCache, &engine->verified);
    return std::shared_ptr<const Core::TlsEngine>(std::move(engine));
}

Result<std::shared_ptr<const Core::TlsEngine>> tlsClientEngine(const TlsClientSettings &settings)
{
    ERR_clear_error();
    SslCtxPtr ctx = newContext(TLS_client_method());
    if (!ctx)
        return openSslError(ErrorCode::Internal, QStringLiteral("cannot create a TLS context"));
    if (auto r = trust(ctx.get(), settings.caCertificates); !r)
        return r.error();
    SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
    if (!settings.certificate.isNull()) {
        if (auto r = useIdentity(ctx.get(), settings.certificate, {}, settings.privateKey); !r)
            return r.error();
    }
    return std::shared_ptr<const Core::TlsEngine>(
        std::make_shared<OpenSslEngine>(std::move(ctx), false, settings.serverName));
}

} // namespace Gatehouse::Crypto
