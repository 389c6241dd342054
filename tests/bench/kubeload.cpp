// A small HTTPS load generator with client certificates (wrk has none): N connections, each
// sending GETs one after another over keep-alive, or (--new-connections) a new TLS connection
// per request. Prints one JSON line: {"requests", "seconds", "rps", "errors", "p50ms", "p99ms"}.
//
//   bench_kubeload --url https://127.0.0.1:6443/api/v1/nodes/node-1 --ca ca.crt
//                  --cert user.crt --key user.key [--connections 16] [--seconds 10]
//                  [--new-connections]
#include "crypto/tls.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslCertificate>
#include <QSslKey>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <memory>
#include <vector>

using namespace Gatehouse;

namespace {

struct Shared
{
    QUrl url;
    // TLS on OpenSSL directly (crypto/tls.h, the server's own layer): one context for every
    // connection, no session resumption, so each new connection is a full handshake. The
    // client's own cost stays small beside the server's on a 2-core machine.
    std::shared_ptr<const Core::TlsEngine> tls;
    bool fresh = false;
    bool stopping = false;
    qint64 done = 0;
    qint64 errors = 0;
    std::vector<qint64> latenciesUs;
    QByteArray request;
};

// One connection slot: sends a request, reads the response (Content-Length framed), repeats.
class Slot : public QObject
{
public:
    explicit Slot(Shared &s) : m_s(s) { open(); }

private:
    void open()
    {
        m_socket = std::make_unique<QTcpSocket>();
        m_tls = m_s.tls->newConnection();
        m_established = false;
        connect(m_socket.get(), &QTcpSocket::connected, this, [this] {
            m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
            pump();
        });
        connect(m_socket.get(), &QTcpSocket::readyRead, this, [this] { pump(); });
        connect(m_socket.get(), &QTcpSocket::errorOccurred, this,
                [this](QAbstractSocket::SocketError e) {
                    if (e == QAbstractSocket::RemoteHostClosedError && m_s.fresh)
                        return;
                    ++m_s.errors;
                    restart();
                });
        m_socket->connectToHost(m_s.url.host(), quint16(m_s.url.port(443)));
        m_clock.start();
    }
    void restart()
    {
        if (m_s.stopping)
            return;
        m_socket->disconnect(this);
        m_socket->abort();
        m_socket.release()->deleteLater();
        QTimer::singleShot(0, this, [this] { open(); });
    }
    void flush()
    {
        const QByteArray out = m_tls->takeOutgoing();
        if (!out.isEmpty())
            m_socket->write(out);
    }
    void pump()
    {
        const QByteArray raw = m_socket->readAll();
        m_tls->receive(raw.constData(), raw.size());
        QByteArray plain;
        const auto state = m_tls->advance(plain);
        if (state == Core::TlsConnection::State::Failed) {
            ++m_s.errors;
            restart();
            return;
        }
        if (state == Core::TlsConnection::State::Established && !m_established) {
            m_established = true;
            send(); // the request goes out in one write with the handshake's last flight
        }
        flush();
        if (!plain.isEmpty())
            read(plain);
    }
    void send()
    {
        if (m_s.stopping)
            return;
        m_buffer.clear();
        m_expected = -1;
        if (!m_s.fresh)
            m_clock.start();
        m_tls->send(m_s.request.constData(), m_s.request.size());
    }
    void read(const QByteArray &plain)
    {
        m_buffer += plain;
        if (m_expected < 0) {
            const qsizetype end = m_buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QByteArray head = m_buffer.left(end).toLower();
            const qsizetype cl = head.indexOf("content-length:");
            m_expected =
                end + 4 +
                (cl < 0
                     ? 0
                     : head.mid(cl + 15, head.indexOf('\r', cl) - cl - 15).trimmed().toLongLong());
            m_ok = m_buffer.startsWith("HTTP/1.1 2");
        }
        if (m_buffer.size() < m_expected)
            return;
        m_s.latenciesUs.push_back(m_clock.nsecsElapsed() / 1000);
        if (m_ok)
            ++m_s.done;
        else
            ++m_s.errors;
        if (m_s.fresh) {
            m_tls->close();
            flush();
            m_socket->disconnectFromHost();
            restart();
        } else {
            send();
            flush();
        }
    }

    Shared &m_s;
    std::unique_ptr<QTcpSocket> m_socket;
    std::unique_ptr<Core::TlsConnection> m_tls;
    bool m_established = false;
    QByteArray m_buffer;
    qint64 m_expected = -1;
    bool m_ok = false;
    QElapsedTimer m_clock;
};

QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addOptions(
        {{QStringLiteral("url"), QStringLiteral("URL"), QStringLiteral("url")},
         {QStringLiteral("ca"), QStringLiteral("CA file"), QStringLiteral("file")},
         {QStringLiteral("cert"), QStringLiteral("client certificate"), QStringLiteral("file")},
         {QStringLiteral("key"), QStringLiteral("client key"), QStringLiteral("file")},
         {QStringLiteral("connections"), QStringLiteral("connections"), QStringLiteral("n"),
          QStringLiteral("16")},
         {QStringLiteral("seconds"), QStringLiteral("duration"), QStringLiteral("s"),
          QStringLiteral("10")},
         {QStringLiteral("new-connections"), QStringLiteral("one TLS connection per request")}});
    p.process(app);
    Shared s;
    s.url = QUrl(p.value(QStringLiteral("url")));
    s.fresh = p.isSet(QStringLiteral("new-connections"));
    Crypto::TlsClientSettings tls;
    tls.caCertificates = QSslCertificate::fromData(readFile(p.value(QStringLiteral("ca"))));
    tls.serverName = s.url.host();
    if (p.isSet(QStringLiteral("cert"))) {
        tls.certificate = QSslCertificate(readFile(p.value(QStringLiteral("cert"))));
        const QByteArray keyPem = readFile(p.value(QStringLiteral("key")));
        tls.privateKey = QSslKey(keyPem, QSsl::Ec);
        if (tls.privateKey.isNull())
            tls.privateKey = QSslKey(keyPem, QSsl::Rsa);
    }
    auto engine = Crypto::tlsClientEngine(tls);
    if (!engine)
        qFatal("TLS: %s", qPrintable(engine.error().message));
    s.tls = *engine;
    s.request = "GET " + s.url.path(QUrl::FullyEncoded).toLatin1() +
                " HTTP/1.1\r\nHost: " + s.url.host().toLatin1() +
                "\r\nAccept: application/json\r\nUser-Agent: kubeload\r\n" +
                (s.fresh ? "Connection: close\r\n" : "") + "\r\n";
    std::vector<std::unique_ptr<Slot>> workers;
    for (int i = 0; i < p.value(QStringLiteral("connections")).toInt(); ++i)
        workers.push_back(std::make_unique<Slot>(s));
    QElapsedTimer total;
    total.start();
    QTimer::singleShot(int(p.value(QStringLiteral("seconds")).toDouble() * 1000), &app, [&] {
        s.stopping = true;
        const double secs = double(total.nsecsElapsed()) / 1e9;
        std::sort(s.latenciesUs.begin(), s.latenciesUs.end());
        auto pct = [&](double q) {
            return s.latenciesUs.empty()
                       ? 0.0
                       : double(s.latenciesUs[size_t(q * double(s.latenciesUs.size() - 1))]) /
                             1000.0;
        };
        QJsonObject r{{QStringLiteral("requests"), s.done},
                      {QStringLiteral("seconds"), secs},
                      {QStringLiteral("rps"), double(s.done) / secs},
                      {QStringLiteral("errors"), s.errors},
                      {QStringLiteral("p50ms"), pct(0.5)},
                      {QStringLiteral("p99ms"), pct(0.99)}};
        QTextStream(stdout) << QJsonDocument(r).toJson(QJsonDocument::Compact) << "\n";
        app.quit();
    });
    return app.exec();
}
