// The peer for the orders benchmark: a bare QtHttpServer 6.4 that parses the JSON order and
// answers 201 with it and a Location header, persisting nothing. What Gatehouse adds on top
// (validation, SQLite with group commit, the outbox row) is the difference to this.
#include <QCoreApplication>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QHttpServer server;
    server.route(
        "/v1/customers/<arg>/orders", QHttpServerRequest::Method::Post,
        [](const QString &customerId, const QHttpServerRequest &req) {
            QJsonObject o = QJsonDocument::fromJson(req.body()).object();
            const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
            o.insert(QStringLiteral("id"), id);
            o.insert(QStringLiteral("orderStatus"), QStringLiteral("NEW"));
            QHttpServerResponse resp(o, QHttpServerResponder::StatusCode::Created);
            resp.addHeader(
                "Location",
                QStringLiteral("/v1/customers/%1/orders/%2").arg(customerId, id).toLatin1());
            return resp;
        });
    const quint16 port = server.listen(QHostAddress::LocalHost, 0);
    if (port == 0)
        return 1;
    std::printf("%u\n", unsigned(port));
    std::fflush(stdout);
    return app.exec();
}
