#include "cluster/impersonation.h"

#include "cluster/admission.h"
#include "cluster/authorizer.h"
#include "core/httpmessage.h"

#include <QUrl>

namespace Gatehouse::Cluster {

namespace {

constexpr QLatin1String kUserHeader("impersonate-user");
constexpr QLatin1String kGroupHeader("impersonate-group");
constexpr QLatin1String kUidHeader("impersonate-uid");
constexpr QLatin1String kExtraPrefix("impersonate-extra-");

const QString kAuthenticated = QStringLiteral("system:authenticated");
const QString kUnauthenticated = QStringLiteral("system:unauthenticated");

Attributes impersonating(const UserInfo &caller, const QString &group, const QString &resource,
                         const QString &name, const QString &ns = QString(),
                         const QString &subresource = QString())
{
    Attributes a;
    a.user = caller;
    a.verb = QStringLiteral("impersonate");
    a.resourceRequest = true;
    a.apiGroup = group;
    a.resource = resource;
    a.subresource = subresource;
    a.name = name;
    a.namespaceName = ns;
    return a;
}

} // namespace

Impersonation impersonate(const Core::HttpRequest &request, const UserInfo &caller,
                          const std::function<AuthorizationResult(const Attributes &)> &authorize)
{
    Impersonation out;
    QString user;
    bool userSent = false;
    QStringList groups;
    QString uid;
    bool uidSent = false;
    QList<QPair<QString, QString>> extras; // key (unescaped, lower-case), value
    for (const auto &[name, value] : request.headers) {
        const QString n = QString::fromLatin1(name);
        // A header sent twice counts once, its first value, as kube's Header.Get reads it.
        if (n == kUserHeader) {
            if (!userSent)
                user = QString::fromUtf8(value).trimmed();
            userSent = true;
        } else if (n == kGroupHeader) {
            groups.append(QString::fromUtf8(value).trimmed());
        } else if (n == kUidHeader) {
            if (!uidSent)
                uid = QString::fromUtf8(value).trimmed();
            uidSent = true;
        } else if (n.startsWith(kExtraPrefix)) {
            const QString key =
                QUrl::fromPercentEncoding(n.mid(kExtraPrefix.size()).toLatin1()).toLower();
            extras.append({key, QString::fromUtf8(value).trimmed()});
        }
    }
    if (!userSent && groups.isEmpty() && !uidSent && extras.isEmpty())
        return out;
    out.requested = true;
    if (user.isEmpty()) {
        out.refusal = Status::badRequest(
            QStringLiteral("requested impersonation of %1 without impersonating a user")
                .arg(!groups.isEmpty() ? QStringLiteral("groups")
                     : uidSent         ? QStringLiteral("a uid")
                                       : QStringLiteral("user extras")));
        return out;
    }

    // Each in kube's order: the user (or service account), the uid, the groups, the extras.
    std::vector<Attributes> checks;
    const QStringList sa = user.split(QLatin1Char(':'));
    // kube's serviceaccount.SplitUsername: a namespace that is a DNS-1123 label and a name
    // that is a DNS-1123 subdomain, else the name is a user's (impersonate users).
    const bool serviceAccount = sa.size() == 4 && sa[0] == QLatin1String("system") &&
                                sa[1] == QLatin1String("serviceaccount") &&
                                Validation::dnsLabel(sa[2]).isEmpty() &&
                                Validation::dnsSubdomain(sa[3]).isEmpty();
    checks.push_back(
        serviceAccount
            ? impersonating(caller, QString(), QStringLiteral("serviceaccounts"), sa[3], sa[2])
            : impersonating(caller, QString(), QStringLiteral("users"), user));
    if (uidSent)
        checks.push_back(impersonating(caller, QStringLiteral("authentication.k8s.io"),
                                       QStringLiteral("uids"), uid));
    for (const QString &g : std::as_const(groups))
        checks.push_back(impersonating(caller, QString(), QStringLiteral("groups"), g));
    for (const auto &[key, value] : std::as_const(extras))
        checks.push_back(impersonating(caller, QStringLiteral("authentication.k8s.io"),
                                       QStringLiteral("userextras"), value, QString(), key));
    for (const Attributes &a : checks) {
        const AuthorizationResult r = authorize(a);
        if (!r.allowed()) {
            out.refusal =
                Status::forbidden(a.apiGroup, a.resource, a.name, forbiddenMessage(a, r.reason));
            return out;
        }
    }

    out.user.name = user;
    out.user.uid = uid;
    out.user.authenticator = caller.authenticator;
    if (serviceAccount && groups.isEmpty())
        groups = {QStringLiteral("system:serviceaccounts"),
                  QStringLiteral("system:serviceaccounts:") + sa[2]};
    if (user != QLatin1String("system:anonymous")) {
        if (!groups.contains(kAuthenticated) && !groups.contains(kUnauthenticated))
            groups.append(kAuthenticated);
    } else if (!groups.contains(kUnauthenticated)) {
        groups.append(kUnauthenticated);
    }
    out.user.groups = groups;
    return out;
}

} // namespace Gatehouse::Cluster
