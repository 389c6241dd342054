#pragma once

#include "cli/connection.h"
#include "cli/output.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

class QCommandLineParser;
class QTextStream;

namespace Gatehouse::Cli {

struct Command;

// What a handler is given: its command, the words after NOUN VERB, the options, the connection
// to the admin API and the output streams.
struct Invocation
{
    const Command &command;
    QStringList args;
    const QCommandLineParser &options;
    const Connection &connection;
    Format format;
    QTextStream &out;
    QTextStream &err;

    QString noun() const;
    QString verb() const;
    bool isSet(const char *option) const;
    QString value(const char *option) const;
    QStringList values(const char *option) const;
};

// A handler builds its request (or does its work) and returns the exit code: 0 done, 1 refused
// or failed, 2 misused.
using Handler = int (*)(const Invocation &);

// The sections of `gatehouse admin --help`, one per source file of handlers.
enum class Group { Orders, OAuth, Cluster, Admin };

// How many words a command takes after NOUN VERB.
struct Arity
{
    int min = 0;
    int max = 0; // -1: no limit
};
constexpr Arity exactly(int n)
{
    return {n, n};
}
constexpr Arity atLeast(int n)
{
    return {n, -1};
}

// One row of the command table (commandtable.cpp).
struct Command
{
    Group group;
    const char *noun;
    const char *verb;     // "": the noun alone (status), or the verb is an argument (explain)
    const char *synopsis; // the arguments and options after NOUN VERB
    Arity arity;
    const char *help; // one line
    Handler run;
};

// A 2xx answer of the admin API: its status and its JSON body.
struct Answer
{
    int status = 0;
    QJsonObject body;
};
using Printer = std::function<int(const Answer &)>;

// Sends the request and handles what every command does alike: no backend or a refusal (said
// on err, exit 1), -o json (the answer printed, exit 0). Otherwise print(answer) for text.
// The admin nouns report a refusal as "URL answered N: message", the cluster nouns as "N:
// message" (Kubernetes Status bodies); a request performed as an identity (asIdentity, POST
// /admin/v1/cluster/requests) answers with the cluster's code and body inside its own.
int send(const Invocation &in, const Request &request, const Printer &print,
         bool asIdentity = false);

// The text of an answer with no output of its own: "done" for 204, else its members (and a
// warning on err when a secret is in them, shown this once).
int printAnswer(const Invocation &in, const Answer &answer);
Printer answerPrinter(const Invocation &in);
// A Printer of the answer's items as a table (exit 0).
Printer tablePrinter(const Invocation &in, QList<Column> columns);
// A Printer of one view of the answer's body (exit 0).
Printer viewPrinter(const Invocation &in, void (*view)(const QJsonObject &, QTextStream &));

// The content of a file, or of stdin for "-"; nothing (the reason said on err) when unreadable.
std::optional<QByteArray> readInput(const QString &name, QTextStream &err);

// --OPTION, when set, as a whole number into o[member]; false when it is not one (said on err:
// "--OPTION must be a whole number" and the unit).
bool wholeNumber(const Invocation &in, const char *option, const char *member, const char *unit,
                 QJsonObject &o);

// An argument as one path segment, percent-encoded (its '/' and '.' too): "../users/bob" given
// as an admin token's id revoked nothing but deleted the user (the dot-segments were resolved
// before the request left). Request paths are sent as encoded (Connection::send).
QString pathSegment(const QString &arg);

// The same for every admin noun: GET /admin/v1/NOUN/ID, DELETE /admin/v1/NOUN/ID, and POST
// /admin/v1/NOUN/ID/VERB (an action on one object), printed with printAnswer.
int showById(const Invocation &in);
int deleteById(const Invocation &in);
int postAction(const Invocation &in);

// GET /admin/v1/PATH with the list filters that are set (--customer, --status, --order,
// --state, --limit, --user, --client, --kind, --target), printed by print.
int sendList(const Invocation &in, const QString &path, const Printer &print);
// sendList of /admin/v1/NOUN printed as a table of its items.
int listTable(const Invocation &in, const QList<Column> &columns);

} // namespace Gatehouse::Cli
