#include "cli/commandtable.h"

#include "cli/admincommands.h"
#include "cli/clustercommands.h"
#include "cli/oauthcommands.h"
#include "cli/orderscommands.h"

#include <QRegularExpression>
#include <QSet>
#include <QTextStream>

namespace Gatehouse::Cli {

namespace {

using namespace AdminCommands;
using namespace OrdersCommands;
using namespace OAuthCommands;
using namespace ClusterCommands;

constexpr Arity any = atLeast(0);

// THE command table: `gatehouse admin NOUN VERB SYNOPSIS`, its help line and its handler. The
// help and the usage errors are made from it. An admin noun's usage error quotes its synopsis
// as it stands, remarks included (three spaces before them, as these lines always had).
constexpr Command Commands[] = {
    // ---- the backend itself
    {Group::Admin, "status", "", "", exactly(0),
     "Version, uptime, data directory, the token in use, database, listeners (also: status "
     "show).",
     status},
    {Group::Admin, "config", "list", "  (every setting: value, source, live or at the next start)",
     exactly(0), "Every setting (docs/settings.md).", configList},
    {Group::Admin, "config", "show", "KEY", exactly(1), "One setting.", configShow},
    {Group::Admin, "config", "set", "KEY VALUE   (live, or kept for the next start)", exactly(2),
     "Change a setting.", configSet},
    {Group::Admin, "config", "reset", "KEY   (drop the value kept for the next start)", exactly(1),
     "Undo a change kept for the next start (restart-only settings).", configReset},
    {Group::Admin, "admin-tokens", "create",
     "NAME --allow AREA:read|write[,...] [--expires-in SECONDS]   (areas: orders, oauth, "
     "cluster, audit, admin, *)",
     exactly(1), "A scoped admin token (docs/admin-tokens.md); printed once.", adminTokensCreate},
    {Group::Admin, "admin-tokens", "list", "", exactly(0),
     "Admin tokens: permissions, expiry, last use (never the tokens).", adminTokensList},
    {Group::Admin, "admin-tokens", "show", "ID", exactly(1), "One admin token.", showById},
    {Group::Admin, "admin-tokens", "revoke", "ID", exactly(1),
     "Revoke an admin token; it stops working at once.", deleteById},
    {Group::Admin, "audit", "list", "[--kind K] [--target T] [--limit N]", exactly(0),
     "Administrative changes, newest first: who, what, the fields changed, what followed "
     "(docs/audit.md).",
     auditList},
    {Group::Admin, "audit", "show", "ENTRY_ID", exactly(1), "One change, before and after.",
     showById},

    // ---- orders and webhooks
    {Group::Orders, "customers", "list", "", exactly(0), "Customers and their order counts.",
     customersList},
    {Group::Orders, "customers", "create", "NAME", exactly(1),
     "A customer; its webhook secret is printed once.", customersCreate},
    {Group::Orders, "customers", "rotate-secret", "CUSTOMER_ID", exactly(1),
     "A new webhook secret, printed once; the previous one is still accepted for a while.",
     postAction},
    {Group::Orders, "beers", "list", "", exactly(0), "The catalog with stock on hand.", beersList},
    {Group::Orders, "beers", "restock", "BEER_ID QUANTITY", exactly(2),
     "Add stock; waiting orders are allocated oldest first.", beersRestock},
    {Group::Orders, "beers", "discontinue", "BEER_ID", exactly(1),
     "Stop supplying a beer (orders for it fail allocation).", postAction},
    {Group::Orders, "beers", "reinstate", "BEER_ID", exactly(1), "Supply a beer again.",
     postAction},
    {Group::Orders, "orders", "list", "[--customer ID] [--status S] [--limit N]", exactly(0),
     "Orders, by customer or status.", ordersList},
    {Group::Orders, "orders", "show", "ORDER_ID", exactly(1),
     "An order with its lines and status history.", showById},
    {Group::Orders, "orders", "pickup", "ORDER_ID", exactly(1), "ALLOCATED -> PICKED_UP.",
     postAction},
    {Group::Orders, "orders", "deliver", "ORDER_ID", exactly(1), "PICKED_UP -> DELIVERED.",
     postAction},
    {Group::Orders, "orders", "cancel", "ORDER_ID", exactly(1),
     "Cancel an order; reserved stock is returned.", postAction},
    {Group::Orders, "orders", "hold", "", exactly(0),
     "Hold the lifecycle: new orders are accepted and wait in NEW (kept across restarts).",
     ordersLifecycle},
    {Group::Orders, "orders", "release", "", exactly(0),
     "Release a held lifecycle: waiting orders are validated and allocated, oldest first.",
     ordersLifecycle},
    {Group::Orders, "deliveries", "list", "[--order ID] [--state S] [--limit N]", exactly(0),
     "Webhook deliveries: state, attempts, last HTTP status and error.", deliveriesList},
    {Group::Orders, "deliveries", "show", "DELIVERY_ID", exactly(1),
     "A delivery with every attempt.", showById},
    {Group::Orders, "deliveries", "redeliver", "DELIVERY_ID", exactly(1), "Send a delivery again.",
     postAction},
    {Group::Orders, "deliveries", "redeliver-all",
     "[--state failed|succeeded|any] [--customer ID] [--order ID] [--endpoint ID] [--from TIME] "
     "[--to TIME] [--rate N] [--dry-run]",
     exactly(0),
     "Send the matching finished deliveries again, paced, as one job (--dry-run: only count "
     "them).",
     deliveriesRedeliverAll},
    {Group::Orders, "redeliveries", "list", "[--limit N]", exactly(0),
     "Redelivery jobs and their progress.", redeliveriesList},
    {Group::Orders, "redeliveries", "show", "JOB_ID", exactly(1), "One job's progress.",
     redeliveriesShow},
    {Group::Orders, "redeliveries", "cancel", "JOB_ID", exactly(1),
     "Stop a job; what it sent stays sent.", redeliveriesCancel},
    {Group::Orders, "endpoints", "list", "[--customer ID] [--state enabled|disabled] [--limit N]",
     exactly(0), "Webhook endpoints: state, why disabled, deliveries pending.", endpointsList},
    {Group::Orders, "endpoints", "disable", "ENDPOINT_ID", exactly(1),
     "Stop delivering to an endpoint.", postAction},
    {Group::Orders, "endpoints", "enable", "ENDPOINT_ID", exactly(1),
     "Deliver to an endpoint again.", postAction},

    // ---- the authorization server
    {Group::OAuth, "clients", "list", "", exactly(0),
     "Clients: authentication method, scopes, token format.", clientsList},
    {Group::OAuth, "clients", "show", "CLIENT_ID", exactly(1), "A client's metadata.", showById},
    {Group::OAuth, "clients", "register", "METADATA_JSON_FILE (- for stdin)", exactly(1),
     "Register a client from RFC 7591 metadata; its secret is printed once.", clientsRegister},
    {Group::OAuth, "clients", "update", "CLIENT_ID METADATA_JSON_FILE (- for stdin)", exactly(2),
     "Replace a client's metadata.", clientsUpdate},
    {Group::OAuth, "clients", "rotate-secret", "CLIENT_ID", exactly(1),
     "A new client secret, printed once.", postAction},
    {Group::OAuth, "clients", "delete", "CLIENT_ID", exactly(1), "Delete a client.", deleteById},
    {Group::OAuth, "clients", "access",
     "CLIENT_ID   (every scope, audience and claim it can obtain)", exactly(1),
     "A client's effective access, each claim with its source.", clientsAccess},
    {Group::OAuth, "keys", "list", "", exactly(0), "Signing keys: algorithm, state, retirement.",
     keysList},
    {Group::OAuth, "keys", "rotate", "[--alg RS256|ES256]", exactly(0),
     "The next key becomes active, the active one retired (still published), a new next key.",
     keysRotate},
    {Group::OAuth, "users", "list", "", exactly(0), "Users: email, groups, locked.", usersList},
    {Group::OAuth, "users", "show", "USER (id or username)", exactly(1), "One user.", showById},
    {Group::OAuth, "users", "add", "USER_JSON_FILE (- for stdin)", exactly(1),
     "Add a user: {\"username\", \"password\", \"email\"?, \"groups\"?}.", usersAdd},
    {Group::OAuth, "users", "set-password", "USER (the password from stdin)", exactly(1),
     "A new password from the first line of stdin (never an argument).", usersSetPassword},
    {Group::OAuth, "users", "unlock", "USER", exactly(1), "Lift a sign-in lockout.", postAction},
    {Group::OAuth, "users", "delete", "USER", exactly(1), "Delete a user.", deleteById},
    {Group::OAuth, "users", "access", "USER   (every scope and claim obtainable, per client)",
     exactly(1), "What each client may obtain for a user.", usersAccess},
    {Group::OAuth, "initial-access-tokens", "create", "[--expires-in SECONDS] [--max-uses N]",
     exactly(0), "A token for RFC 7591 registration; printed once.", initialAccessTokensCreate},
    {Group::OAuth, "initial-access-tokens", "list", "", exactly(0),
     "Initial access tokens: expiry and uses (never the tokens).", initialAccessTokensList},
    {Group::OAuth, "initial-access-tokens", "delete", "ID", exactly(1),
     "Delete an initial access token.", deleteById},
    {Group::OAuth, "tokens", "list", "[--client ID] [--user ID] [--limit N]", exactly(0),
     "Issued tokens by client or user (ids, never the tokens).", tokensList},
    {Group::OAuth, "tokens", "revoke", "TOKEN_ID", exactly(1), "Revoke a token.", deleteById},
    {Group::OAuth, "tokens", "preview",
     "REQUEST_JSON_FILE (- for stdin: {\"client_id\", \"grant_type\", \"scope\"?, "
     "\"resource\"?, \"username\"?, \"subject_token\"?, ...})",
     exactly(1), "The claims a token request would get, each with its source; nothing issued.",
     tokensPreview},
    {Group::OAuth, "issuers", "list", "", exactly(0),
     "Trusted issuers of JWT assertions (jwt-bearer grant).", issuersList},
    {Group::OAuth, "issuers", "add", "ISSUER_JSON_FILE (- for stdin: {\"issuer\", \"jwks\"})",
     exactly(1), "Trust an issuer and its keys (\"scopes\": [...] bounds its tokens).", issuersAdd},
    {Group::OAuth, "issuers", "remove", "ISSUER_URL", exactly(1), "Stop trusting an issuer.",
     issuersRemove},
    {Group::OAuth, "consents", "list", "[--user ID] [--client ID]", exactly(0),
     "Consents users gave to clients.", consentsList},
    {Group::OAuth, "consents", "revoke", "USER_ID CLIENT_ID", exactly(2),
     "Withdraw a user's consent for a client.", consentsRevoke},

    // ---- the cluster API
    {Group::Cluster, "kubeconfig", "user",
     "NAME [--group G]... [--file PATH [--reference-files]] [--server URL] [--days N]", exactly(1),
     "A kubeconfig with a client certificate for user NAME.", kubeconfigIssue},
    {Group::Cluster, "kubeconfig", "node",
     "NODE_NAME [--file PATH [--reference-files]] [--server URL] [--days N]", exactly(1),
     "A kubeconfig for the node agent system:node:NODE_NAME.", kubeconfigIssue},
    {Group::Cluster, "kubeconfig", "view", "FILE", exactly(1),
     "A kubeconfig file redacted, like kubectl config view.", kubeconfigView},
    {Group::Cluster, "nodes", "list", "", exactly(0), "Nodes and their labels.", nodesList},
    {Group::Cluster, "nodes", "show", "NAME", exactly(1), "A Node object.", objectShow},
    {Group::Cluster, "nodes", "create", "NAME [--label K=V]...", exactly(1), "Create a Node.",
     objectCreate},
    {Group::Cluster, "nodes", "delete", "NAME", exactly(1), "Delete a Node.", objectDelete},
    {Group::Cluster, "labels", "list", "NODE", exactly(1), "A node's labels.", labelsList},
    {Group::Cluster, "labels", "set", "NODE K=V... [--as USER [--group G]... | --anonymous]",
     atLeast(2), "Set labels (K- removes one); with --as, as that identity would.", labelsChange},
    {Group::Cluster, "labels", "remove", "NODE KEY... [--as USER [--group G]... | --anonymous]",
     atLeast(2), "Remove labels; with --as, as that identity would.", labelsChange},
    {Group::Cluster, "namespaces", "list", "", exactly(0), "Namespaces and their phase.",
     namespacesList},
    {Group::Cluster, "namespaces", "show", "NAME", exactly(1), "A Namespace object.", objectShow},
    {Group::Cluster, "namespaces", "create", "NAME [--label K=V]...", exactly(1),
     "Create a Namespace.", objectCreate},
    {Group::Cluster, "namespaces", "delete", "NAME", exactly(1), "Delete a Namespace.",
     objectDelete},
    {Group::Cluster, "rbac", "roles", "[-n NS]", exactly(0),
     "ClusterRoles, or the Roles of namespace NS.", rbacRoles},
    {Group::Cluster, "rbac", "bindings", "[-n NS]", exactly(0),
     "ClusterRoleBindings, or the RoleBindings of namespace NS.", rbacBindings},
    {Group::Cluster, "rbac", "import", "FILE...", atLeast(1),
     "Create or update the RBAC objects of YAML manifests (exit 1 if one fails).", rbacImport},
    {Group::Cluster, "rbac", "delete", "KIND NAME [-n NS]", exactly(2),
     "Delete a Role, ClusterRole, RoleBinding or ClusterRoleBinding.", rbacDelete},
    {Group::Cluster, "rbac", "who-can", "RESOURCE [-n NS]", exactly(1),
     "Which subjects may do which verbs on RESOURCE.", rbacWhoCan},
    {Group::Cluster, "rbac", "access", "(--as USER [--group G]... | --anonymous)", exactly(0),
     "Effective access: every verb x resource held, and why.", rbacAccess},
    {Group::Cluster, "settings", "show", "", exactly(0),
     "Anonymous authentication, authorization modes, admission plugins.", settingsShow},
    {Group::Cluster, "settings", "set",
     "anonymous-auth=true|false authorization-mode=M,... enable-admission-plugins=P,...",
     atLeast(1), "Change any of them, live.", settingsSet},
    {Group::Cluster, "explain", "",
     "VERB RESOURCE [NAME] [-n NS] [--subresource S] | VERB /PATH   (--as USER [--group G]... "
     "| --anonymous)",
     any, "A request as that identity, dry run: each decision and its reason.", explain},
    {Group::Cluster, "explain", "label",
     "NODE K=V|K-...   (--as USER [--group G]... | --anonymous)", atLeast(2),
     "A label change as that identity, dry run (NodeRestriction included).", explain},
    {Group::Cluster, "cluster-requests", "list", "[--limit N]", exactly(0),
     "Recent cluster API decisions: who, what, the answer, where and why it was refused.",
     clusterRequestsList},
};

// The sections of the help, in their order.
struct Section
{
    Group group;
    const char *title;
};
constexpr Section Sections[] = {
    {Group::Admin, "The backend"},
    {Group::Orders, "Orders and webhooks (docs/orders.md)"},
    {Group::OAuth, "Authorization server (docs/oauth.md)"},
    {Group::Cluster, "Cluster API (docs/cluster.md)"},
};

bool fits(Arity arity, qsizetype words)
{
    return words >= arity.min && (arity.max < 0 || words <= arity.max);
}

QString commandLine(const Command &c)
{
    return QStringLiteral("  gatehouse admin ") + usage(c) + QLatin1Char('\n');
}

QString optionNames(const QCommandLineOption &o)
{
    QStringList names;
    for (const QString &n : o.names())
        names.append((n.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + n);
    QString s = names.join(QStringLiteral(", "));
    if (!o.valueName().isEmpty())
        s += QStringLiteral(" <%1>").arg(o.valueName());
    return s;
}

// The options, names in a column of width and descriptions wrapped beside it (80 columns).
QString optionLines(const QList<QCommandLineOption> &options, qsizetype width)
{
    const qsizetype indent = 2 + width + 2;
    QString s;
    for (const QCommandLineOption &o : options) {
        QString line = QStringLiteral("  ") + optionNames(o).leftJustified(width + 2);
        for (const QString &word : o.description().split(QLatin1Char(' '))) {
            if (line.size() + 1 + word.size() > 80 && line.size() > indent) {
                s += line + QLatin1Char('\n');
                line = QString(indent, QLatin1Char(' ')) + word;
            } else {
                line += (line.size() > indent ? QStringLiteral(" ") : QString()) + word;
            }
        }
        s += line + QLatin1Char('\n');
    }
    return s;
}

// The options a synopsis names: "--limit", "-n".
QSet<QString> optionsNamed(const char *synopsis)
{
    static const QRegularExpression option(QStringLiteral("(?:^|[\\s\\[(|])--?([a-z][a-z-]*)"));
    QSet<QString> names;
    for (auto it = option.globalMatch(QLatin1String(synopsis)); it.hasNext();)
        names.insert(it.next().captured(1));
    return names;
}

} // namespace

std::span<const Command> commands()
{
    return Commands;
}

bool isNoun(const QString &noun)
{
    return std::any_of(std::begin(Commands), std::end(Commands),
                       [&noun](const Command &c) { return noun == QLatin1String(c.noun); });
}

bool isClusterNoun(const QString &noun)
{
    return std::any_of(std::begin(Commands), std::end(Commands), [&noun](const Command &c) {
        return c.group == Group::Cluster && noun == QLatin1String(c.noun);
    });
}

Match findCommand(const QString &noun, const QStringList &words)
{
    Match m;
    for (const Command &c : Commands) {
        if (noun != QLatin1String(c.noun) || !*c.verb || words.isEmpty() ||
            words.first() != QLatin1String(c.verb))
            continue;
        if (fits(c.arity, words.size() - 1))
            return {&c, words.mid(1), nullptr};
        if (!m.misused)
            m.misused = &c;
    }
    // The noun alone (its verb, if any, is its first argument); "status show" is "status".
    for (const Command &c : Commands) {
        if (noun != QLatin1String(c.noun) || *c.verb)
            continue;
        const bool show = c.arity.max == 0 && words == QStringList{QStringLiteral("show")};
        if (show || fits(c.arity, words.size()))
            return {&c, show ? QStringList() : words, m.misused};
    }
    return m;
}

QString usage(const Command &c)
{
    QString s = QLatin1String(c.noun);
    for (const char *part : {c.verb, c.synopsis})
        if (*part)
            s += QLatin1Char(' ') + QLatin1String(part);
    return s;
}

QString usageLines()
{
    QString s;
    for (const Section &section : Sections)
        for (const Command &c : Commands)
            if (c.group == section.group)
                s += commandLine(c);
    return s;
}

int printClusterUsage(QTextStream &err)
{
    err << "gatehouse admin: usage:\n";
    for (const Command &c : Commands)
        if (c.group == Group::Cluster)
            err << commandLine(c);
    return 2;
}

QString helpText(const QList<QCommandLineOption> &common, const QList<QCommandLineOption> &others,
                 const QString &noun)
{
    QString s;
    QSet<QString> named;
    if (noun.isEmpty())
        s += QStringLiteral(
            "gatehouse admin NOUN VERB [ARGUMENTS] [OPTIONS]: administer a running Gatehouse\n"
            "backend through its admin API; the one of --data-dir (its ports.json and\n"
            "admin-token) unless --admin-url and --admin-token say otherwise.\n"
            "'gatehouse admin NOUN --help' shows one noun's commands and their options.\n");
    for (const Section &section : Sections) {
        QString lines;
        for (const Command &c : Commands) {
            if (c.group != section.group || (!noun.isEmpty() && noun != QLatin1String(c.noun)))
                continue;
            lines += commandLine(c) + QStringLiteral("      ") + QLatin1String(c.help) +
                     QLatin1Char('\n');
            named.unite(optionsNamed(c.synopsis));
        }
        if (!lines.isEmpty())
            s += (s.isEmpty() ? QString() : QStringLiteral("\n")) + QLatin1String(section.title) +
                 QStringLiteral(":\n") + lines;
    }
    QList<QCommandLineOption> shown;
    for (const QCommandLineOption &o : others) {
        const QStringList names = o.names();
        if (noun.isEmpty() || std::any_of(names.begin(), names.end(),
                                          [&named](const QString &n) { return named.contains(n); }))
            shown.append(o);
    }
    // -h, --help: QCommandLineParser::addHelpOption's, described here.
    const QList<QCommandLineOption> every =
        common + QList<QCommandLineOption>{QCommandLineOption(
                     {QStringLiteral("h"), QStringLiteral("help")},
                     QStringLiteral("This help; after a noun, its commands and their options."))};
    qsizetype width = 0;
    for (const QCommandLineOption &o : shown + every)
        width = std::max(width, optionNames(o).size());
    if (!shown.isEmpty())
        s += QStringLiteral("\nOptions of these commands:\n") + optionLines(shown, width);
    s += QStringLiteral("\nOptions of every command:\n") + optionLines(every, width);
    return s;
}

} // namespace Gatehouse::Cli
