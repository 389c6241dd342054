#include "admin/adminapi.h"

#include "core/eventbus.h"
#include "core/httpserver.h"
#include "core/metrics.h"

#include <QJsonDocument>
#include <QPointer>
#include <QTimer>

namespace Gatehouse::Admin {

using Core::HttpRequest;
using Core::HttpResponse;

AdminApi::AdminApi(Core::HttpServer &server, Core::EventBus &events, Core::Metrics &metrics,
                   QString adminToken, std::function<QJsonObject()> status, QObject *parent)
    : QObject(parent), m_server(server), m_events(events), m_metrics(metrics),
      m_token(std::move(adminToken)), m_status(std::move(status))
{
    registerRoutes();
}

bool AdminApi::tokenMatches(const QString &expected, const QString &presented)
{
    // Constant time in the length of the expected token.
    const QByteArray a = expected.toUtf8();
    const QByteArray b = presented.toUtf8();
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= uchar(a[i]) ^ uchar(i < b.size() ? b[i] : 0);
    return !expected.isEmpty() && diff == 0;
}

namespace {

QByteArray sseFrame(const Core::Event &e)
{
    return "id: " + QByteArray::number(e.seq) + "\nevent: " + e.type.toUtf8() +
           "\ndata: " + QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact) + "\n\n";
}

} // namespace

void AdminApi::registerRoutes()
{
    auto guard = [this](const HttpRequest &req) -> std::optional<HttpResponse> {
        if (tokenMatches(m_token, req.bearerToken()))
            return std::nullopt;
        // Fail closed; never say whether a token was close.
        HttpResponse r = HttpResponse::error(401, QStringLiteral("unauthorized"),
                                             req.bearerToken().isEmpty()
                                                 ? QStringLiteral("missing admin token")
                                                 : QStringLiteral("invalid admin token"));
        r.setHeader("WWW-Authenticate", "Bearer realm=\"gatehouse-admin\"");
        return r;
    };
    m_server.addFilter(QStringLiteral("/admin/"), guard);
    m_server.addFilter(QStringLiteral("/metrics"), guard);

    m_server.route("GET", QStringLiteral("/metrics"), [this](const HttpRequest &) {
        return HttpResponse::text(200, m_metrics.render(),
                                  "text/plain; version=0.0.4; charset=utf-8");
    });

    m_server.route("GET", QStringLiteral("/admin/v1/status"), [this](const HttpRequest &) {
        HttpResponse r = HttpResponse::json(200, m_status());
        r.setHeader("Cache-Control", "no-store");
        return r;
    });

    m_server.route("GET", QStringLiteral("/admin/v1/events"), [this](const HttpRequest &req) {
        bool ok = false;
        qint64 since = req.header("last-event-id").toLongLong(&ok);
        if (!ok)
            since = req.query.queryItemValue(QStringLiteral("since")).toLongLong(&ok);
        if (!ok)
            since = -1; // new subscriber: only what happens from now on, plus the last few
        HttpResponse r;
        r.status = 200;
        r.setHeader("Content-Type", "text/event-stream");
        r.setHeader("X-Accel-Buffering", "no");
        r.stream = [this, since](Core::HttpStream *stream) {
            QPointer<Core::HttpStream> s(stream);
            stream->write(": gatehouse event stream\nretry: 2000\n\n");
            QList<Core::Event> backlog = m_events.since(since < 0 ? 0 : since);
            if (since < 0 && backlog.size() > 50)
                backlog = backlog.mid(backlog.size() - 50);
            for (const Core::Event &e : std::as_const(backlog))
                stream->write(sseFrame(e));
            const qint64 last = backlog.isEmpty() ? m_events.lastSeq() : backlog.last().seq;
            auto lastSent = std::make_shared<qint64>(last);
            // Events are published from several threads, so their notifications can arrive
            // here out of order: write whatever the bus holds after the last one sent, in
            // sequence, rather than the event that happened to arrive.
            connect(&m_events, &Core::EventBus::published, stream,
                    [this, s, lastSent](const Core::Event &e) {
                        if (!s || e.seq <= *lastSent)
                            return;
                        for (const Core::Event &next : m_events.since(*lastSent)) {
                            *lastSent = next.seq;
                            s->write(sseFrame(next));
                        }
                    });
            auto *keepalive = new QTimer(stream);
            keepalive->setInterval(15'000);
            connect(keepalive, &QTimer::timeout, stream, [s] {
                if (s)
                    s->write(": keepalive\n\n");
            });
            keepalive->start();
        };
        return r;
    });
}

} // namespace Gatehouse::Admin
