#include "admin/demoseeder.h"
#include "admin/adminlogging.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/settingsstore.h"
#include "crypto/password.h"
#include "oauth/userstore.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSqlQuery>
#include <QThreadPool>

namespace Gatehouse::Admin {

namespace {

constexpr auto SeededKey = "demo-seeded";
// Written before the first step: a start that finds it finishes what an interrupted run began.
constexpr auto StartedKey = "demo-seeding";

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// The cluster's demo access: who may label nodes, who may read pods in the shop namespace.
constexpr auto RbacManifests = R"(apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: node-labeler
rules:
- apiGroups: [""]
  resources: ["nodes"]
  verbs: ["get", "list", "patch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: devs-label-nodes
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: node-labeler}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: Group, name: devs}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: pod-reader
  namespace: shop
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "watch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: alice-reads-pods
  namespace: shop
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: pod-reader}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}
)";

} // namespace

DemoSeeder::DemoSeeder(QUrl adminUrl, QString adminToken, Core::SettingsStore &settings,
                       const Core::Clock &clock, bool holdsAccounts, QObject *parent)
    : QObject(parent), m_adminUrl(std::move(adminUrl)), m_adminToken(std::move(adminToken)),
      m_settings(settings), m_clock(clock), m_holdsAccounts(holdsAccounts),
      m_nam(new QNetworkAccessManager(this))
{
    // The backend's own admin listener, with the root token: never through a proxy.
    m_nam->setProxy(QNetworkProxy::NoProxy);
    const QByteArray js = "application/json";
    const QString password = QLatin1String(Password);
    m_steps = {
        {"POST", QStringLiteral("/admin/v1/cluster/k8s/api/v1/namespaces"),
         json({{"apiVersion", "v1"},
               {"kind", "Namespace"},
               {"metadata", QJsonObject{{"name", "shop"}}}}),
         js, QStringLiteral("namespace shop")},
        {"POST", QStringLiteral("/admin/v1/cluster/rbac/import"), RbacManifests, "application/yaml",
         QStringLiteral("RBAC: node-labeler for devs, pod-reader for alice")},
        {"POST", QStringLiteral("/admin/v1/users"),
         json({{"username", "alice"},
               {"password", password},
               {"email", "alice@example.com"},
               {"email_verified", true},
               {"name", "Alice Developer"},
               {"groups", QJsonArray{"devs"}}}),
         js, QStringLiteral("user alice")},
        {"POST", QStringLiteral("/admin/v1/users"),
         json({{"username", "bob"},
               {"password", password},
               {"email", "bob@example.com"},
               {"email_verified", true},
               {"name", "Bob Operator"},
               {"groups", QJsonArray{"ops"}}}),
         js, QStringLiteral("user bob")},
        {"POST", QStringLiteral("/admin/v1/clients"),
         json({{"client_name", "Demo web app"},
               {"token_endpoint_auth_method", "none"},
               {"grant_types", QJsonArray{"authorization_code", "refresh_token"}},
               {"redirect_uris", QJsonArray{"http://127.0.0.1:3000/callback"}},
               {"scope", "openid profile email orders:read"}}),
         js, QStringLiteral("client Demo web app")},
        {"POST", QStringLiteral("/admin/v1/clients"),
         json({{"client_name", "Inventory service"},
               {"grant_types", QJsonArray{"client_credentials"}},
               {"scope", "orders:read orders:write"}}),
         js, QStringLiteral("client Inventory service")},
        {"POST", QStringLiteral("/admin/v1/clients"),
         json({{"client_name", "Legacy till"},
               {"grant_types", QJsonArray{"password", "refresh_token"}},
               {"scope", "openid orders:read"}}),
         js, QStringLiteral("client Legacy till")},
        {"POST", QStringLiteral("/admin/v1/customers"), json({{"name", "Hopfen & Malz GmbH"}}), js,
         QStringLiteral("customer Hopfen & Malz GmbH")},
    };
    for (int i = 0; i < 3; ++i)
        m_steps.append({"POST", QStringLiteral("/admin/v1/test-orders"), json({}), js,
                        QStringLiteral("test order %1").arg(i + 1)});
}

DemoSeeder::~DemoSeeder() = default;

bool DemoSeeder::alreadySeeded() const
{
    return m_settings.value(QLatin1String(SeededKey)).ok();
}

void DemoSeeder::start()
{
    if (alreadySeeded()) {
        qCInfo(lcAdmin) << "demo mode: the demo data is there already";
        m_steps.clear();
    } else if (m_holdsAccounts && !m_settings.value(QLatin1String(StartedKey)).ok()) {
        // Users with the public password and open clients belong on a new data directory only,
        // never beside real accounts (docs/demo.md). Nothing is marked: a new data directory
        // in demo mode still gets them.
        qCWarning(lcAdmin).noquote()
            << "demo mode: this data directory holds users or OAuth clients already; the demo "
               "users (public password), clients and RBAC objects are made only on a new data "
               "directory";
        m_steps.clear();
        emit finished({QStringLiteral("the data directory is not new")});
        return;
    } else {
        qCInfo(lcAdmin) << "demo mode: creating the demo data";
        if (auto r =
                m_settings.setValue(QLatin1String(StartedKey), m_clock.now().toString(Qt::ISODate));
            !r) {
            qCWarning(lcAdmin).noquote() << "demo mode:" << r.error().message;
            m_steps.clear();
            emit finished({r.error().message});
            return;
        }
    }
    next();
}

void DemoSeeder::warnOfDemoUsersLeft(Core::Database &database, const Core::SettingsStore &settings,
                                     const QString &serviceUrl)
{
    if (!settings.value(QLatin1String(SeededKey)).ok() &&
        !settings.value(QLatin1String(StartedKey)).ok())
        return;
    // Read here, the hashes only (the user store hands out no hash); verified on a pool thread.
    QList<std::pair<QString, QString>> hashes;
    QSqlQuery q(database.connection());
    q.prepare(QStringLiteral("SELECT username, password_hash, locked_until FROM oauth_users "
                             "WHERE username IN ('alice', 'bob') ORDER BY username"));
    if (!q.exec())
        return;
    while (q.next())
        if (q.value(2).toLongLong() < OAuth::User::kLockedByAdministrator)
            hashes.append({q.value(0).toString(), q.value(1).toString()});
    if (hashes.isEmpty())
        return;
    QThreadPool::globalInstance()->start([hashes, serviceUrl] {
        QStringList left;
        for (const auto &[username, hash] : hashes)
            if (Crypto::Password::verify(hash, QByteArray(Password)))
                left.append(username);
        if (left.isEmpty())
            return;
        const bool one = left.size() == 1;
        qCWarning(lcAdmin).noquote()
            << QStringLiteral("demo mode is off, but the demo %1 %2 of this data directory still "
                              "%3 in with the public demo password (docs/demo.md): anyone who "
                              "reaches the service listener %4 can sign in as %5; give %5 a new "
                              "password (gatehouse admin users set-password USER) or delete %5 "
                              "(gatehouse admin users delete USER)")
                   .arg(one ? QStringLiteral("user") : QStringLiteral("users"),
                        left.join(QLatin1String(", ")),
                        one ? QStringLiteral("signs") : QStringLiteral("sign"), serviceUrl,
                        one ? QStringLiteral("that user") : QStringLiteral("them"));
    });
}

void DemoSeeder::next()
{
    if (m_steps.isEmpty()) {
        if (!alreadySeeded())
            if (auto r = m_settings.setValue(QLatin1String(SeededKey),
                                             m_clock.now().toString(Qt::ISODate));
                !r)
                qCWarning(lcAdmin).noquote() << "demo mode:" << r.error().message;
        if (!m_failures.isEmpty())
            qCWarning(lcAdmin).noquote()
                << "demo mode: not created:" << m_failures.join(QLatin1String("; "));
        emit finished(m_failures);
        return;
    }
    const Step step = m_steps.takeFirst();
    QUrl url = m_adminUrl;
    url.setPath(step.path);
    QNetworkRequest request(url);
    request.setRawHeader("Authorization", "Bearer " + m_adminToken.toUtf8());
    request.setRawHeader("X-Gatehouse-Actor", "demo mode");
    request.setHeader(QNetworkRequest::ContentTypeHeader, step.contentType);
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("gatehouse-demo"));
    QNetworkReply *reply = m_nam->sendCustomRequest(request, step.method, step.body);
    connect(reply, &QNetworkReply::finished, this, [this, reply, what = step.what] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        // 409: made on an earlier run that did not finish; nothing to do.
        if ((status < 200 || status > 299) && status != 409) {
            const QString message = QJsonDocument::fromJson(reply->readAll())
                                        .object()
                                        .value(QLatin1String("message"))
                                        .toString(reply->errorString());
            m_failures.append(QStringLiteral("%1 (%2 %3)").arg(what).arg(status).arg(message));
        }
        next();
    });
}

} // namespace Gatehouse::Admin
