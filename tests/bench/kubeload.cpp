// A small HTTPS load generator with client certificates (wrk has none): N connections, each
// sending GETs one after another over keep-alive, or (--new-connections) a new TLS connection
// per request. Prints one JSON line: {"requests", "seconds", "rps", "errors", "p50ms", "p99ms"}.
//
//   bench_kubeload --url https://127.0.0.1:6443/api/v1/nodes/node-1 --ca ca.crt
//                  --cert user.crt --key user.key [--connections 16] [--seconds 10]
//                  [--new-connections]
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>
#include <QTimer>
#include <QUrl>

#ifdef GATEHOUSE_QT_NETWORK_PRIVATE
#include <QtNetwork/private/qsslsocket_p.h>
#endif

#include <algorithm>
#include <memory>
#include <vector>

namespace {

struct Shared
{
    QUrl url;
    QSslConfiguration tls;
    bool fresh = false;
    bool stopping = false;
    qint64 done = 0;
    qint64 errors = 0;
    std::vector<qint64> latenciesUs;
    QByteArray request;
#ifdef GATEHOUSE_QT_NETWORK_PRIVATE
    // One OpenSSL context for every connection, as Qt's own HTTP client shares it; without
    // this the client spends more on building contexts than on handshakes. Session sharing is
    // off (see main), so each connection is still a full handshake.
    std::shared_ptr<QSslContext> context;
#endif
};

// One connection slot: sends a request, reads the response (Content-Length framed), repeats.
class Slot : public QObject
{
public:
    explicit Slot(Shared &s) : m_s(s) { open(); }

private:
    void open()
    {
        m_socket = std::make_unique<QSslSocket>();
        m_socket->setSslConfiguration(m_s.tls);
        m_socket->setPeerVerifyName(m_s.url.host());
#ifdef GATEHOUSE_QT_NETWORK_PRIVATE
        if (m_s.context)
            QSslSocketPrivate::checkSettingSslContext(m_socket.get(), m_s.context);
#endif
        connect(m_socket.get(), &QSslSocket::encrypted, this, [this] {
#ifdef GATEHOUSE_QT_NETWORK_PRIVATE
            if (!m_s.context)
                m_s.context = QSslSocketPrivate::sslContext(m_socket.get());
#endif
            send();
        });
        connect(m_socket.get(), &QSslSocket::readyRead, this, [this] { read(); });
        connect(m_socket.get(), &QSslSocket::errorOccurred, this,
                [this](QAbstractSocket::SocketError e) {
                    if (e == QAbstractSocket::RemoteHostClosedError && m_s.fresh)
                        return;
                    ++m_s.errors;
                    restart();
                });
        connect(m_socket.get(), &QSslSocket::sslErrors, this,
                [this](const QList<QSslError> &) { ++m_s.errors; });
        m_socket->connectToHostEncrypted(m_s.url.host(), quint16(m_s.url.port(443)));
        m_clock.start();
    }
    void restart()
    {
        if (m_s.stopping)
            return;
        m_socket.release()->deleteLater();
        QTimer::singleShot(0, this, [this] { open(); });
    }
    void send()
    {
        if (m_s.stopping)
            return;
        m_buffer.clear();
        m_expected = -1;
        if (!m_s.fresh)
            m_clock.start();
        m_socket->write(m_s.request);
    }
    void read()
    {
        m_buffer += m_socket->readAll();
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
            m_socket->disconnectFromHost();
            restart();
        } else {
            send();
        }
    }

    Shared &m_s;
    std::unique_ptr<QSslSocket> m_socket;
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
    s.tls = QSslConfiguration::defaultConfiguration();
    s.tls.setCaCertificates(QSslCertificate::fromData(readFile(p.value(QStringLiteral("ca")))));
    if (p.isSet(QStringLiteral("cert"))) {
        s.tls.setLocalCertificate(QSslCertificate(readFile(p.value(QStringLiteral("cert")))));
        const QByteArray keyPem = readFile(p.value(QStringLiteral("key")));
        QSslKey key(keyPem, QSsl::Ec);
        if (key.isNull())
            key = QSslKey(keyPem, QSsl::Rsa);
        s.tls.setPrivateKey(key);
    }
    s.tls.setPeerVerifyMode(QSslSocket::VerifyPeer);
    // Resumption would hide the handshake cost that --new-connections measures.
    s.tls.setSslOption(QSsl::SslOptionDisableSessionTickets, true);
    s.tls.setSslOption(QSsl::SslOptionDisableSessionPersistence, true);
    s.tls.setSslOption(QSsl::SslOptionDisableSessionSharing, true);
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
