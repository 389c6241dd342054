#include "cluster/requestinfo.h"

#include <QHash>

namespace Gatehouse::Cluster {

void addAuthenticatedGroup(UserInfo &user)
{
    if (user.isAnonymous())
        return;
    if (user.groups.contains(QLatin1String(kAuthenticatedGroup)) ||
        user.groups.contains(QLatin1String(kUnauthenticatedGroup)))
        return;
    user.groups.append(QLatin1String(kAuthenticatedGroup));
}

namespace {

// Subresources under which namespaces/<ns>/<x> still names the namespace itself.
bool isNamespaceSubresource(const QString &s)
{
    return s == QLatin1String("status") || s == QLatin1String("finalize");
}

bool watchRequested(const QUrlQuery &query)
{
    if (!query.hasQueryItem(QStringLiteral("watch")))
        return false;
    const QString v = query.queryItemValue(QStringLiteral("watch")).toLower();
    return v != QLatin1String("false") && v != QLatin1String("0");
}

// "metadata.name=x" (or "metadata.name==x") among comma-separated requirements.
QString nameFromFieldSelector(const QString &selector)
{
    for (const QString &req : selector.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString r = req.trimmed();
        for (const QLatin1String op : {QLatin1String("=="), QLatin1String("=")}) {
            const QString prefix = QStringLiteral("metadata.name") + op;
            if (r.startsWith(prefix) && !r.startsWith(QStringLiteral("metadata.name!=")))
                return r.mid(prefix.size());
        }
    }
    return {};
}

} // namespace

RequestInfo RequestInfo::parse(const QByteArray &method, const QString &path,
                               const QUrlQuery &query)
{
    RequestInfo info;
    info.path = path;
    info.verb = QString::fromLatin1(method).toLower();

    QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.isEmpty())
        return info;
    if (parts[0] != QLatin1String("api") && parts[0] != QLatin1String("apis"))
        return info;
    info.apiPrefix = parts.takeFirst();
    // /api/v1/... needs 3 segments in all, /apis/g/v/... 4.
    if (info.apiPrefix == QLatin1String("apis")) {
        if (parts.size() < 3)
            return info;
        info.apiGroup = parts.takeFirst();
    } else if (parts.size() < 2) {
        return info;
    }
    info.apiVersion = parts.takeFirst();
    info.isResourceRequest = true;

    // The legacy watch and proxy prefixes.
    if (!parts.isEmpty() &&
        (parts[0] == QLatin1String("watch") || parts[0] == QLatin1String("proxy"))) {
        info.legacyWatch = parts[0] == QLatin1String("watch");
        info.verb = parts.takeFirst();
        if (info.verb == QLatin1String("watch") && parts.isEmpty())
            info.verb = QStringLiteral("list"); // "/api/v1/watch" alone is not a watch
    } else {
        static const QHash<QString, QString> verbs{
            {QStringLiteral("get"), QStringLiteral("get")},
            {QStringLiteral("head"), QStringLiteral("get")},
            {QStringLiteral("post"), QStringLiteral("create")},
            {QStringLiteral("put"), QStringLiteral("update")},
            {QStringLiteral("patch"), QStringLiteral("patch")},
            {QStringLiteral("delete"), QStringLiteral("delete")}};
        info.verb = verbs.value(info.verb, info.verb);
    }

    if (parts.size() >= 2 && parts[0] == QLatin1String("namespaces")) {
        info.namespaceName = parts[1];
        // namespaces/<ns>[/status|finalize] is the namespace itself.
        if (parts.size() == 2 || (parts.size() == 3 && isNamespaceSubresource(parts[2]))) {
            // keep parts as namespaces/<ns>[/sub]
        } else {
            parts.remove(0, 2);
            info.inNamespace = true;
        }
    }
    info.parts = parts;
    if (!parts.isEmpty())
        info.resource = parts.value(0);
    if (parts.size() >= 2)
        info.name = parts.value(1);
    if (parts.size() >= 3)
        info.subresource = parts.value(2);

    info.fieldSelector = query.queryItemValue(QStringLiteral("fieldSelector"), QUrl::FullyDecoded);
    info.labelSelector = query.queryItemValue(QStringLiteral("labelSelector"), QUrl::FullyDecoded);
    if (info.name.isEmpty() && info.verb == QLatin1String("get"))
        info.verb = watchRequested(query) ? QStringLiteral("watch") : QStringLiteral("list");
    if (info.name.isEmpty() && info.verb == QLatin1String("delete"))
        info.verb = QStringLiteral("deletecollection");
    if (info.name.isEmpty() &&
        (info.verb == QLatin1String("list") || info.verb == QLatin1String("watch")))
        info.selectorName = nameFromFieldSelector(info.fieldSelector);
    return info;
}

Attributes Attributes::from(const UserInfo &user, const RequestInfo &info)
{
    Attributes a;
    a.user = user;
    a.verb = info.verb;
    a.resourceRequest = info.isResourceRequest;
    a.path = info.path;
    if (info.isResourceRequest) {
        a.namespaceName = info.namespaceName;
        a.apiGroup = info.apiGroup;
        a.apiVersion = info.apiVersion;
        a.resource = info.resource;
        a.subresource = info.subresource;
        a.name = info.name.isEmpty() ? info.selectorName : info.name;
        if (a.verb == QLatin1String("list") || a.verb == QLatin1String("watch") ||
            a.verb == QLatin1String("deletecollection")) {
            a.fieldSelector = info.fieldSelector;
            a.labelSelector = info.labelSelector;
        }
    }
    return a;
}

QString Attributes::resourceWithSubresource() const
{
    return subresource.isEmpty() ? resource : resource + QLatin1Char('/') + subresource;
}

} // namespace Gatehouse::Cluster
