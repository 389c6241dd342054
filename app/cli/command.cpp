#include "cli/command.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonDocument>
#include <QTextStream>
#include <QUrl>

#include <cstdio>

namespace Gatehouse::Cli {

QString Invocation::noun() const
{
    return QLatin1String(command.noun);
}

QString Invocation::verb() const
{
    return QLatin1String(command.verb);
}

bool Invocation::isSet(const char *option) const
{
    return options.isSet(QLatin1String(option));
}

QString Invocation::value(const char *option) const
{
    return options.value(QLatin1String(option));
}

QStringList Invocation::values(const char *option) const
{
    return options.values(QLatin1String(option));
}

int send(const Invocation &in, const Request &request, const Printer &print, bool asIdentity)
{
    // The cluster nouns answer as kubectl would: the code and the Status message.
    const bool cluster = in.command.group == Group::Cluster;
    const Reply r = in.connection.call(request);
    if (r.status == 0) {
        in.err << "gatehouse admin: no Gatehouse backend answers at "
               << in.connection.url.toString();
        if (!cluster && !in.connection.source.isEmpty())
            in.err << " (from " << in.connection.source << ")";
        in.err << ": " << r.networkError << "\n";
        return 1;
    }
    Answer answer{r.status, QJsonDocument::fromJson(r.body).object()};
    if (asIdentity) {
        answer.status = answer.body.value(QStringLiteral("code")).toInt();
        answer.body = answer.body.value(QStringLiteral("body")).toObject();
    }
    if (answer.status < 200 || answer.status > 299) {
        in.err << "gatehouse admin: ";
        if (!cluster)
            in.err << in.connection.url.toString() << " answered ";
        in.err << answer.status << ": "
               << terminalSafe(answer.body.value(QStringLiteral("message")).toString()) << "\n";
        return 1;
    }
    if (in.format == Format::Json) {
        printJson(answer.body, in.out);
        return 0;
    }
    return print(answer);
}

int printAnswer(const Invocation &in, const Answer &answer)
{
    if (answer.status == 204) {
        in.out << "done\n";
        return 0;
    }
    const QJsonObject &o = answer.body;
    if (o.contains(QStringLiteral("webhookSecret")) ||
        o.contains(QStringLiteral("client_secret")) ||
        ((in.noun() == QLatin1String("initial-access-tokens") ||
          in.noun() == QLatin1String("admin-tokens")) &&
         o.contains(QStringLiteral("token"))))
        in.err << "gatehouse admin: the secret is shown once; store it now.\n";
    printObject(o, in.out);
    return 0;
}

std::optional<QByteArray> readInput(const QString &name, QTextStream &err)
{
    QFile f;
    const bool ok = name == QLatin1String("-") ? f.open(stdin, QIODevice::ReadOnly)
                                               : (f.setFileName(name), f.open(QIODevice::ReadOnly));
    if (!ok) {
        err << "gatehouse admin: cannot read " << name << ": " << f.errorString() << "\n";
        return std::nullopt;
    }
    return f.readAll();
}

bool wholeNumber(const Invocation &in, const char *option, const char *member, const char *unit,
                 QJsonObject &o)
{
    if (!in.isSet(option))
        return true;
    bool ok = false;
    const qint64 v = in.value(option).toLongLong(&ok);
    if (!ok) {
        in.err << "gatehouse admin: --" << option << " must be a whole number" << unit << "\n";
        return false;
    }
    o.insert(QLatin1String(member), v);
    return true;
}

Printer answerPrinter(const Invocation &in)
{
    return [&in](const Answer &a) { return printAnswer(in, a); };
}

Printer tablePrinter(const Invocation &in, QList<Column> columns)
{
    return [&in, columns = std::move(columns)](const Answer &a) {
        printTable(a.body.value(QStringLiteral("items")).toArray(), columns, in.out);
        return 0;
    };
}

Printer viewPrinter(const Invocation &in, void (*view)(const QJsonObject &, QTextStream &))
{
    return [&in, view](const Answer &a) {
        view(a.body, in.out);
        return 0;
    };
}

QString pathSegment(const QString &arg)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(arg, QByteArray(), "."));
}

int showById(const Invocation &in)
{
    return send(in,
                {"GET", QStringLiteral("/admin/v1/%1/%2").arg(in.noun(), pathSegment(in.args[0]))},
                answerPrinter(in));
}

int deleteById(const Invocation &in)
{
    return send(
        in, {"DELETE", QStringLiteral("/admin/v1/%1/%2").arg(in.noun(), pathSegment(in.args[0]))},
        answerPrinter(in));
}

int postAction(const Invocation &in)
{
    return send(
        in,
        {"POST",
         QStringLiteral("/admin/v1/%1/%2/%3").arg(in.noun(), pathSegment(in.args[0]), in.verb())},
        answerPrinter(in));
}

int sendList(const Invocation &in, const QString &path, const Printer &print)
{
    Request request{"GET", QStringLiteral("/admin/v1/") + path};
    const std::pair<const char *, const char *> filters[] = {
        {"customer", "customerId"}, {"status", "status"}, {"order", "orderId"},
        {"state", "state"},         {"limit", "limit"},   {"user", "user"},
        {"client", "client"},       {"kind", "kind"},     {"target", "target"}};
    for (const auto &[option, param] : filters)
        if (in.isSet(option))
            request.query.addQueryItem(QLatin1String(param), in.value(option));
    return send(in, request, print);
}

int listTable(const Invocation &in, const QList<Column> &columns)
{
    return sendList(in, in.noun(), tablePrinter(in, columns));
}

} // namespace Gatehouse::Cli
