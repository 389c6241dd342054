#include "admin/adminapi.h"

#include "admin/adminbody.h"
#include "admin/admintokens.h"
#include "admin/statsseries.h"
#include "core/adminproof.h"
#include "core/clock.h"
#include "core/eventbus.h"
#include "core/httpserver.h"
#include "core/metrics.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QPointer>
#include <QTimer>

namespace Gatehouse::Admin {

using Core::HttpRequest;
using Core::HttpResponse;

// An event's frame is the same for every stream that may read it: made once, not once per
// stream (250 streams of one read-only token made each order cost 29 times its CPU).
struct SseFrames
{
    QMutex mutex;
    QHash<qint64, QByteArray> bySeq; // at most 4,096, then started over
};

AdminApi::AdminApi(Core::HttpServer &server, Core::EventBus &events, Core::Metrics &metrics,
                   AdminTokens &tokens, std::function<QJsonObject()> status, QObject *parent)
    : QObject(parent), m_server(server), m_events(events), m_metrics(metrics), m_tokens(tokens),
      m_status(std::move(status)), m_frames(std::make_shared<SseFrames>())
{
    registerRoutes();
    registerTokenRoutes();
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
           "\ndata: " + e.toJsonText() + "\n\n";
}

// The frame for this reader: the event, or (for an event of an area the token may not read)
// only its id as a comment, so Last-Event-ID still moves on and nothing is replayed twice.
QByteArray sseFrameFor(const AdminPrincipal &reader, const Core::Event &e, SseFrames &frames)
{
    if (e.type == StatsSeries::eventType()) {
        // Everybody's event, but each counter only for the readers of its area.
        Core::Event filtered = e;
        filtered.setData(StatsSeries::forReader(e.data(), reader));
        return sseFrame(filtered);
    }
    const QString area = AdminTokens::areaOfEvent(e.type);
    if (!area.isEmpty() && !reader.may(area, false))
        return "id: " + QByteArray::number(e.seq) + "\n: not permitted\n\n";
    QMutexLocker lock(&frames.mutex);
    if (const auto it = frames.bySeq.constFind(e.seq); it != frames.bySeq.constEnd())
        return *it;
    QByteArray frame = sseFrame(e);
    if (frames.bySeq.size() >= 4096)
        frames.bySeq.clear();
    frames.bySeq.insert(e.seq, frame);
    return frame;
}

QString accessWord(bool write)
{
    return write ? QStringLiteral("change") : QStringLiteral("read");
}

} // namespace

void AdminApi::registerRoutes()
{
    auto guard = [this](const HttpRequest &req) -> std::optional<HttpResponse> {
        const auto principal = m_tokens.authenticate(req.bearerToken());
        if (!principal) {
            // Fail closed; never say whether a token was close.
            HttpResponse r = HttpResponse::error(401, QStringLiteral("unauthorized"),
                                                 req.bearerToken().isEmpty()
                                                     ? QStringLiteral("missing admin token")
                                                     : QStringLiteral("invalid admin token"));
            r.setHeader("WWW-Authenticate", "Bearer realm=\"gatehouse-admin\"");
            return r;
        }
        const QString area = AdminTokens::areaOfPath(req.path);
        const bool write = AdminTokens::isWrite(req.method, req.path);
        if (area.isEmpty() || principal->may(area, write))
            return std::nullopt;
        const QStringList held = principal->permissions();
        return HttpResponse::error(403, QStringLiteral("forbidden"),
                                   QStringLiteral("%1 may not %2 the %3 area (it holds %4)")
                                       .arg(principal->describe(), accessWord(write), area,
                                            held.isEmpty() ? QStringLiteral("no permissions")
                                                           : held.join(QLatin1String(", "))));
    };
    m_server.addFilter(QStringLiteral("/admin/"), guard);
    m_server.addFilter(QStringLiteral("/metrics"), guard);

    // Without a token (it answers before one is sent): proves that this listener holds the
    // root admin token of the data directory whose ports.json led the CLI here, at the address
    // and port the request reached (its connection's own end, never a header): relayed to
    // another Gatehouse with the same root token, the proof names that one's endpoint.
    m_server.route("GET", QStringLiteral("/admin-proof"), [this](const HttpRequest &req) {
        const QByteArray nonce = req.query.queryItemValue(QStringLiteral("nonce")).toLatin1();
        if (!Core::isAdminProofNonce(nonce))
            return HttpResponse::error(400, QStringLiteral("invalid-query-parameter"),
                                       QStringLiteral("nonce: 22 to 128 characters of base64url"));
        const QString endpoint = Core::adminProofEndpoint(req.localAddress, req.localPort);
        QJsonObject answer;
        // With token=ID: the proof of the token ID names (root or scoped), which the CLI and
        // the console ask for before any token goes over plain http (Core::adminTokenProof),
        // with the endpoint it is for.
        if (req.query.hasQueryItem(QStringLiteral("token"))) {
            bool unprovable = false;
            const auto byToken = m_tokens.tokenProof(
                req.query.queryItemValue(QStringLiteral("token")), nonce, endpoint, &unprovable);
            if (unprovable)
                return HttpResponse::error(
                    409, QStringLiteral("token-unprovable"),
                    QStringLiteral("this admin token was made before Gatehouse kept what proves "
                                   "it over plain http: create a new one, or reach the admin "
                                   "listener over https (--admin-tls)"));
            if (!byToken)
                return HttpResponse::error(404, QStringLiteral("unknown-token"),
                                           QStringLiteral("no live admin token has this id "
                                                          "(revoked or expired?)"));
            answer.insert(QStringLiteral("proof"), QString::fromLatin1(*byToken));
            answer.insert(QStringLiteral("endpoint"), endpoint);
        } else {
            answer.insert(QStringLiteral("proof"),
                          QString::fromLatin1(m_tokens.rootProof(nonce, endpoint)));
        }
        HttpResponse r = HttpResponse::json(200, answer);
        r.setHeader("Cache-Control", "no-store");
        return r;
    });

    m_server.route("GET", QStringLiteral("/metrics"), [this](const HttpRequest &) {
        return HttpResponse::text(200, m_metrics.render(),
                                  "text/plain; version=0.0.4; charset=utf-8");
    });

    m_server.route("GET", QStringLiteral("/admin/v1/status"), [this](const HttpRequest &req) {
        QJsonObject status = m_status();
        // Who the caller is, so a console can tell what it may do before it is refused.
        const auto principal = m_tokens.authenticate(req.bearerToken());
        if (principal)
            status.insert(QStringLiteral("principal"), principal->toJson());
        // The orders and webhook counters are the orders area's, as its stats series are.
        if (!principal || !principal->may(QStringLiteral("orders"), false)) {
            status.remove(QStringLiteral("webhooks"));
            status.remove(QStringLiteral("orders"));
        }
        HttpResponse r = HttpResponse::json(200, status);
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
        const auto reader = m_tokens.authenticate(req.bearerToken());
        if (!reader) // revoked between the guard and here
            return HttpResponse::error(401, QStringLiteral("unauthorized"),
                                       QStringLiteral("invalid admin token"));
        HttpResponse r;
        r.status = 200;
        r.setHeader("Content-Type", "text/event-stream");
        r.setHeader("X-Accel-Buffering", "no");
        r.stream = [this, since, reader = *reader, token = req.bearerToken(),
                    frames = m_frames](Core::HttpStream *stream) {
            QPointer<Core::HttpStream> s(stream);
            // Counted while it is open: its end deletes the counter's guard with it.
            m_openStreams->fetch_add(1);
            auto *counted = new QObject(stream);
            connect(counted, &QObject::destroyed, [open = m_openStreams] { open->fetch_sub(1); });
            stream->write(": gatehouse event stream\nretry: 2000\n\n");
            QList<Core::Event> backlog = m_events.since(since < 0 ? 0 : since);
            if (since < 0 && backlog.size() > 50)
                backlog = backlog.mid(backlog.size() - 50);
            for (const Core::Event &e : std::as_const(backlog))
                stream->write(sseFrameFor(reader, e, *frames));
            const qint64 last = backlog.isEmpty() ? m_events.lastSeq() : backlog.last().seq;
            auto lastSent = std::make_shared<qint64>(last);
            // Events are published from several threads, so their notifications can arrive
            // here out of order: write whatever the bus holds after the last one sent, in
            // sequence, rather than the event that happened to arrive.
            auto checked = std::make_shared<QElapsedTimer>();
            checked->start();
            connect(&m_events, &Core::EventBus::published, stream,
                    [this, s, lastSent, reader, token, frames, checked](const Core::Event &e) {
                        if (!s || e.seq <= *lastSent)
                            return;
                        // A token revoked on another instance of the database (this one
                        // reads the change within a second; no tokenRevoked here) or expired:
                        // its stream ends before the next event (expiry), or a second later at
                        // most (revocation elsewhere), not at the next keepalive. Looked up once
                        // a second, not per event (a hash and a lookup per event and stream).
                        const bool expired =
                            reader.expiresAt > 0 &&
                            m_tokens.clock().now().toMSecsSinceEpoch() >= reader.expiresAt;
                        if (!reader.root && (expired || checked->hasExpired(1000))) {
                            checked->restart();
                            if (expired || !m_tokens.authenticate(token)) {
                                s->close();
                                return;
                            }
                        }
                        for (const Core::Event &next : m_events.since(*lastSent)) {
                            *lastSent = next.seq;
                            s->write(sseFrameFor(reader, next, *frames));
                        }
                    });
            // A revoked token's streams end at once (here; elsewhere before the next event).
            if (!reader.root)
                connect(this, &AdminApi::tokenRevoked, stream,
                        [s, id = reader.id](const QString &r) {
                            if (s && r == id)
                                s->close();
                        });
            auto *keepalive = new QTimer(stream);
            keepalive->setInterval(15'000);
            connect(keepalive, &QTimer::timeout, stream, [this, s, token] {
                if (!s)
                    return;
                if (!m_tokens.authenticate(token)) {
                    s->close();
                    return;
                }
                s->write(": keepalive\n\n");
            });
            keepalive->start();
        };
        return r;
    });
}

void AdminApi::serveStatsSeries(const StatsSeries &series)
{
    const StatsSeries *counters = &series;
    m_server.route(
        "GET", QStringLiteral("/admin/v1/stats/series"), [this, counters](const HttpRequest &req) {
            const auto reader = m_tokens.authenticate(req.bearerToken());
            if (!reader) // revoked between the guard and here
                return HttpResponse::error(401, QStringLiteral("unauthorized"),
                                           QStringLiteral("invalid admin token"));
            HttpResponse r =
                HttpResponse::json(200, StatsSeries::forReader(counters->series(), *reader));
            r.setHeader("Cache-Control", "no-store");
            return r;
        });
}

void AdminApi::registerTokenRoutes()
{
    // Scoped admin tokens (docs/admin-tokens.md). The guard has checked admin:read / write.
    m_server.route("GET", QStringLiteral("/admin/v1/admin-tokens"), [this](const HttpRequest &) {
        return HttpResponse::json(200, QJsonObject{{QStringLiteral("items"), m_tokens.list()}});
    });
    m_server.route("GET", QStringLiteral("/admin/v1/admin-tokens/{id}"),
                   [this](const HttpRequest &req) {
                       const QString id = req.pathParam(QStringLiteral("id"));
                       if (const auto found = m_tokens.find(id))
                           return HttpResponse::json(200, *found);
                       return HttpResponse::error(404, QStringLiteral("admin-token-not-found"),
                                                  QStringLiteral("no admin token %1").arg(id));
                   });
    // {"name", "permissions": ["orders:read", ...], "expiresIn"?: seconds}
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/admin-tokens"),
        [this](const HttpRequest &req, const Core::Responder &respond) {
            const auto creator = m_tokens.authenticate(req.bearerToken());
            if (!creator)
                return respond(HttpResponse::error(401, QStringLiteral("unauthorized"),
                                                   QStringLiteral("invalid admin token")));
            QJsonParseError pe;
            const QJsonDocument doc = QJsonDocument::fromJson(req.body, &pe);
            if (pe.error != QJsonParseError::NoError || !doc.isObject())
                return respond(HttpResponse::error(
                    400, QStringLiteral("malformed-json"),
                    QStringLiteral("the body must be a JSON object: {\"name\", "
                                   "\"permissions\": [\"AREA:read|write\", ...], "
                                   "\"expiresIn\"?}")));
            const QJsonObject o = doc.object();
            if (auto unknown = unknownMember(o, {"name", "permissions", "expiresIn"}))
                return respond(*unknown);
            const QJsonValue name = o.value(QStringLiteral("name"));
            const QJsonValue permissions = o.value(QStringLiteral("permissions"));
            const QJsonValue expiresIn = o.value(QStringLiteral("expiresIn"));
            QStringList items;
            bool itemsOk = permissions.isArray();
            for (const QJsonValue v : permissions.toArray()) {
                itemsOk = itemsOk && v.isString();
                items.append(v.toString());
            }
            if (!name.isString() || !itemsOk ||
                (!expiresIn.isUndefined() &&
                 (!expiresIn.isDouble() || expiresIn.toDouble() < 60 ||
                  expiresIn.toDouble() > 10.0 * 365 * 86400 ||
                  expiresIn.toDouble() != double(expiresIn.toInteger()))))
                return respond(HttpResponse::error(
                    400, QStringLiteral("validation-failed"),
                    QStringLiteral("name: a string; permissions: a list of strings "
                                   "(\"orders:read\", ...); expiresIn: whole seconds, 60 to "
                                   "315360000, or absent for no expiry")));
            QString by = QString::fromUtf8(req.header("x-gatehouse-actor")).trimmed().left(100);
            by = by.isEmpty() ? creator->identify()
                              : QStringLiteral("%1 via %2").arg(by, creator->identify());
            m_tokens.create(
                *creator, name.toString(), items,
                expiresIn.isUndefined() ? 0 : expiresIn.toInteger() * 1000, by,
                [respond](const Core::Result<AdminTokens::Created> &r) {
                    if (!r)
                        return respond(errorAnswer(r.error()));
                    QJsonObject body = r->principal.toJson();
                    body.remove(QStringLiteral("root"));
                    body.insert(QStringLiteral("token"), r->token);
                    body.insert(QStringLiteral("createdAt"), Core::isoTimeMs(r->createdAt));
                    body.insert(QStringLiteral("expiresAt"),
                                r->expiresAt > 0 ? QJsonValue(Core::isoTimeMs(r->expiresAt))
                                                 : QJsonValue());
                    HttpResponse resp = HttpResponse::json(201, body);
                    resp.setHeader("Cache-Control", "no-store");
                    respond(resp);
                });
        });
    m_server.routeDeferred(
        "DELETE", QStringLiteral("/admin/v1/admin-tokens/{id}"),
        [this](const HttpRequest &req, const Core::Responder &respond) {
            const QString id = req.pathParam(QStringLiteral("id"));
            const auto caller = m_tokens.authenticate(req.bearerToken());
            if (!caller)
                return respond(HttpResponse::error(401, QStringLiteral("unauthorized"),
                                                   QStringLiteral("invalid admin token")));
            m_tokens.revoke(*caller, id, [this, id, respond](const Core::Result<void> &r) {
                if (!r)
                    return respond(errorAnswer(r.error()));
                emit tokenRevoked(id);
                respond(HttpResponse{204, {}, {}, {}});
            });
        });
}

} // namespace Gatehouse::Admin
