#include "accessview.h"
#include "fields.h"

#include "tokenpreview.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace Gatehouse::Console {

namespace {
QStringList stringItems(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue v : value.toArray())
        if (v.isString())
            out.append(v.toString());
    return out;
}

void addClaims(QVariantList *out, const QString &token, const QJsonObject &tokenPart)
{
    const QJsonObject claims = tokenPart.value(QLatin1String("claims")).toObject();
    const QJsonObject sources = tokenPart.value(QLatin1String("sources")).toObject();
    for (auto it = claims.begin(); it != claims.end(); ++it) {
        const QJsonObject source = sources.value(it.key()).toObject();
        out->append(QVariantMap{{"token", token},
                                {"claim", it.key()},
                                {"value", jsonValueText(it.value())},
                                {"sourceText", TokenPreview::sourceText(str(source, "source"))},
                                {"detail", str(source, "detail")}});
    }
}

void addScopes(QVariantList *out, const QJsonValue &scopes, const QString &client)
{
    for (const QJsonValue v : scopes.toArray()) {
        const QJsonObject s = v.toObject();
        if (str(s, "scope").isEmpty())
            continue;
        out->append(QVariantMap{{"scope", str(s, "scope")},
                                {"sourceText", TokenPreview::sourceText(str(s, "source"))},
                                {"detail", str(s, "detail")},
                                {"client", client}});
    }
}
} // namespace

AccessView::AccessView(AdminClient *client, QObject *parent) : QObject(parent), m_client(client) {}

bool AccessView::privileged() const
{
    return m_answer.value(QLatin1String("privileged")).toBool();
}

QStringList AccessView::notes() const
{
    return stringItems(m_answer.value(QLatin1String("notes")));
}

void AccessView::loadClient(const QString &clientId)
{
    load(QStringLiteral("client"), QStringLiteral("/oauth/access"),
         QJsonObject{{"client_id", clientId.trimmed()}});
}

void AccessView::loadUser(const QString &username)
{
    load(QStringLiteral("user"), QStringLiteral("/oauth/access"),
         QJsonObject{{"username", username.trimmed()}});
}

void AccessView::loadCluster(const QString &user, const QString &groups, bool anonymous)
{
    if (anonymous) {
        load(QStringLiteral("cluster"), QStringLiteral("/cluster/access"),
             QJsonObject{{"anonymous", true}});
        return;
    }
    QJsonArray groupList;
    for (const QString &g :
         groups.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts))
        groupList.append(g);
    load(QStringLiteral("cluster"), QStringLiteral("/cluster/access"),
         QJsonObject{{"user", user.trimmed()}, {"groups", groupList}});
}

void AccessView::clear()
{
    ++m_generation;
    setBusy(false);
    m_mode.clear();
    m_error.clear();
    m_answer = {};
    m_subjectText.clear();
    m_scopes.clear();
    m_audiences.clear();
    m_claims.clear();
    m_cells.clear();
    m_clusterText.clear();
    m_clusterDroppedText.clear();
    emit changed();
}

void AccessView::load(const QString &mode, const QString &path, const QJsonObject &body)
{
    clear();
    m_mode = mode;
    emit changed();
    if (!m_client)
        return;
    const quint64 generation = m_generation;
    setBusy(true);
    m_client->callApi({"POST", path, {}, body}, this,
                      [this, generation, mode](const ApiResult &result) {
                          if (generation != m_generation)
                              return;
                          setBusy(false);
                          if (result.canceled)
                              return;
                          if (!result.ok()) {
                              m_error = result.errorMessage;
                              emit changed();
                              return;
                          }
                          if (mode == QLatin1String("cluster"))
                              applyCluster(result.object());
                          else
                              applyOAuth(mode, result.object());
                      });
}

void AccessView::applyOAuth(const QString &mode, const QJsonObject &answer)
{
    m_mode = mode;
    m_answer = answer.isEmpty() ? QJsonObject{{"empty", true}} : answer;
    m_error.clear();
    m_scopes.clear();
    m_audiences.clear();
    m_claims.clear();
    m_cells.clear();
    m_clusterText.clear();
    m_clusterDroppedText.clear();
    const QJsonObject subject = answer.value(QLatin1String("subject")).toObject();
    if (mode == QLatin1String("client")) {
        const QString grants =
            stringItems(answer.value(QLatin1String("grantTypes"))).join(QStringLiteral(", "));
        const QString name = str(subject, "clientName").isEmpty() ? str(subject, "name")
                                                                  : str(subject, "clientName");
        const QString id =
            str(subject, "clientId").isEmpty() ? str(subject, "id") : str(subject, "clientId");
        m_subjectText = tr("Client %1 · grant types: %2")
                            .arg(name.isEmpty() ? id : QStringLiteral("%1 (%2)").arg(name, id),
                                 grants.isEmpty() ? tr("none") : grants);
        addScopes(&m_scopes, answer.value(QLatin1String("scopes")), QString());
        for (const QJsonValue v : answer.value(QLatin1String("audiences")).toArray()) {
            const QJsonObject a = v.toObject();
            if (str(a, "audience").isEmpty())
                continue;
            m_audiences.append(
                QVariantMap{{"audience", str(a, "audience")},
                            {"sourceText", TokenPreview::sourceText(str(a, "source"))},
                            {"detail", str(a, "detail")}});
        }
        addClaims(&m_claims, tr("client_credentials access token"),
                  answer.value(QLatin1String("clientCredentials")).toObject());
    } else {
        const QStringList groups = stringItems(subject.value(QLatin1String("groups")));
        m_subjectText = groups.isEmpty()
                            ? tr("User %1 (%2)").arg(str(subject, "username"), str(subject, "id"))
                            : tr("User %1 (%2) · groups: %3")
                                  .arg(str(subject, "username"), str(subject, "id"),
                                       groups.join(QStringLiteral(", ")));
        for (const QJsonValue v : answer.value(QLatin1String("clients")).toArray()) {
            const QJsonObject c = v.toObject();
            const QString client =
                str(c, "clientName").isEmpty() ? str(c, "clientId") : str(c, "clientName");
            if (client.isEmpty())
                continue;
            addScopes(&m_scopes, c.value(QLatin1String("scopes")), client);
            addClaims(&m_claims, tr("%1 · access token").arg(client),
                      c.value(QLatin1String("accessToken")).toObject());
            addClaims(&m_claims, tr("%1 · id_token").arg(client),
                      c.value(QLatin1String("idToken")).toObject());
        }
        const QJsonObject cluster = answer.value(QLatin1String("cluster")).toObject();
        if (!cluster.isEmpty()) {
            QStringList through;
            for (const QJsonValue v : cluster.value(QLatin1String("clients")).toArray())
                through.append(str(v.toObject(), "clientName"));
            m_clusterText =
                cluster.value(QLatin1String("reachable")).toBool()
                    ? tr("In the cluster: %1 · groups: %2 · through: %3")
                          .arg(str(cluster, "username"),
                               stringItems(cluster.value(QLatin1String("groups")))
                                   .join(QStringLiteral(", ")),
                               through.join(QStringLiteral(", ")))
                    : tr("Not in the cluster: %1").arg(str(cluster, "reason")); // server's words
            const QStringList dropped = stringItems(cluster.value(QLatin1String("droppedGroups")));
            if (!dropped.isEmpty())
                m_clusterDroppedText =
                    tr("Dropped by the cluster: %1 (%2)")
                        .arg(dropped.join(QStringLiteral(", ")), str(cluster, "droppedReason"));
        }
    }
    emit changed();
}

QString AccessView::viaText(const QJsonObject &via)
{
    const QJsonObject subject = via.value(QLatin1String("subject")).toObject();
    return tr("%1 %2 → %3 %4 rule %5 (%6 %7)")
        .arg(str(via, "bindingKind"), str(via, "bindingName"), str(via, "roleKind"),
             str(via, "roleName"))
        .arg(via.value(QLatin1String("ruleIndex")).toInt())
        .arg(str(subject, "kind"), str(subject, "name"));
}

void AccessView::applyCluster(const QJsonObject &answer)
{
    m_mode = QStringLiteral("cluster");
    m_answer = answer.isEmpty() ? QJsonObject{{"empty", true}} : answer;
    m_error.clear();
    m_scopes.clear();
    m_audiences.clear();
    m_claims.clear();
    m_cells.clear();
    const QJsonObject user = answer.value(QLatin1String("user")).toObject();
    const QStringList groups = stringItems(user.value(QLatin1String("groups")));
    m_subjectText = tr("%1 · groups: %2")
                        .arg(str(user, "username"),
                             groups.isEmpty() ? tr("none") : groups.join(QStringLiteral(", ")));
    for (const QJsonValue v : answer.value(QLatin1String("access")).toArray()) {
        const QJsonObject cell = v.toObject();
        if (str(cell, "verb").isEmpty())
            continue;
        const QString scopeText = str(cell, "scope") == QLatin1String("namespace")
                                      ? tr("namespace %1").arg(str(cell, "namespace"))
                                      : tr("cluster");
        QString resource = str(cell, "nonResourceURL");
        if (resource.isEmpty()) {
            resource = str(cell, "resource");
            if (!str(cell, "apiGroup").isEmpty())
                resource += QLatin1Char('.') + str(cell, "apiGroup");
            const QStringList names = stringItems(cell.value(QLatin1String("resourceNames")));
            if (!names.isEmpty())
                resource += QStringLiteral(" [%1]").arg(names.join(QStringLiteral(", ")));
        }
        QStringList via;
        for (const QJsonValue b : cell.value(QLatin1String("via")).toArray())
            if (b.isObject())
                via.append(viaText(b.toObject()));
        m_cells.append(QVariantMap{{"scopeText", scopeText},
                                   {"verb", str(cell, "verb")},
                                   {"resourceText", resource},
                                   {"viaText", via.join(QLatin1Char('\n'))},
                                   {"viaCount", int(via.size())}});
    }
    emit changed();
}

void AccessView::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged();
}

void AccessView::retranslate()
{
    if (m_answer.isEmpty() || !m_error.isEmpty())
        return; // nothing shown, or an error (the server's words) instead
    const QJsonObject answer = m_answer;
    if (m_mode == QLatin1String("cluster"))
        applyCluster(answer);
    else
        applyOAuth(m_mode, answer);
}

} // namespace Gatehouse::Console
