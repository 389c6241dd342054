#include "nodelabeleditor.h"
#include "fields.h"

#include "clustersettingsstate.h"
#include "nodelistmodel.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Gatehouse::Console {

namespace {

constexpr auto AdminUser = "gatehouse-admin";
constexpr auto MastersGroup = "system:masters";
constexpr auto NodesGroup = "system:nodes";
constexpr auto NodeUserPrefix = "system:node:";

QJsonObject obj(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toObject();
}

QJsonObject labelsOf(const QJsonObject &node)
{
    return obj(obj(node, "metadata"), "labels");
}

QVariantMap stage(const QString &id, const QString &title, const QString &decision,
                  const QString &family, const QString &source, const QString &detail)
{
    return {{QStringLiteral("stage"), id},          {QStringLiteral("title"), title},
            {QStringLiteral("decision"), decision}, {QStringLiteral("family"), family},
            {QStringLiteral("source"), source},     {QStringLiteral("detail"), detail}};
}

} // namespace

NodeLabelEditor::NodeLabelEditor(AdminClient *client, NodeListModel *nodes, QObject *parent)
    : QObject(parent), m_client(client), m_nodes(nodes)
{
    m_pause.setSingleShot(true);
    m_pause.setInterval(PauseMs);
    connect(&m_pause, &QTimer::timeout, this, &NodeLabelEditor::explain);
    connect(&m_labels, &NodeLabelModel::changed, this, &NodeLabelEditor::inputChanged);
    if (nodes) {
        connect(nodes, &QAbstractItemModel::modelReset, this, &NodeLabelEditor::syncNode);
        connect(nodes, &QAbstractItemModel::rowsInserted, this, &NodeLabelEditor::syncNode);
        connect(nodes, &QAbstractItemModel::rowsRemoved, this, &NodeLabelEditor::syncNode);
        connect(nodes, &QAbstractItemModel::dataChanged, this, &NodeLabelEditor::syncNode);
    }
    if (!client)
        return;
    connect(client, &AdminClient::connectionStateChanged, this, [this] {
        if (m_client && m_client->connectionState() == AdminClient::Online)
            inputChanged(); // the verdict may have changed while we were away
    });
    // A role or binding changed elsewhere: the verdict and its near misses may have too.
    connect(client, &AdminClient::eventReceived, this, [this](const AdminEvent &event) {
        if (event.type != QLatin1String("cluster.object.changed"))
            return;
        static const QStringList rbac{QStringLiteral("clusterroles"), QStringLiteral("roles"),
                                      QStringLiteral("clusterrolebindings"),
                                      QStringLiteral("rolebindings")};
        if (rbac.contains(event.data.value(QLatin1String("resource")).toString()))
            inputChanged();
    });
}

void NodeLabelEditor::setClusterSettings(ClusterSettingsState *settings)
{
    if (settings)
        connect(settings, &ClusterSettingsState::changed, this, &NodeLabelEditor::inputChanged);
}

QString NodeLabelEditor::httpCodeText(int code)
{
    static const QHash<int, QString> phrases{
        {200, QStringLiteral("OK")},
        {201, QStringLiteral("Created")},
        {400, QStringLiteral("Bad Request")},
        {401, QStringLiteral("Unauthorized")},
        {403, QStringLiteral("Forbidden")},
        {404, QStringLiteral("Not Found")},
        {409, QStringLiteral("Conflict")},
        {415, QStringLiteral("Unsupported Media Type")},
        {422, QStringLiteral("Unprocessable Entity")},
        {500, QStringLiteral("Internal Server Error")},
    };
    const QString phrase = phrases.value(code);
    return phrase.isEmpty() ? QString::number(code) : QStringLiteral("%1 %2").arg(code).arg(phrase);
}

// ---- node ---------------------------------------------------------------------------------

void NodeLabelEditor::setNodeName(const QString &name)
{
    if (m_nodeName == name)
        return;
    m_nodeName = name;
    const QJsonObject node = m_nodes ? m_nodes->node(name) : QJsonObject();
    m_nodeKnown = !node.isEmpty();
    m_resourceVersion = str(obj(node, "metadata"), "resourceVersion");
    // A node agent acts for the selected node until told otherwise.
    m_agentNode = name;
    m_newKey.clear();
    m_newValue.clear();
    clearApplied();
    emit nodeChanged();
    emit identityChanged();
    emit draftChanged();
    m_labels.reset(labelsOf(node)); // explains again
}

void NodeLabelEditor::syncNode()
{
    if (!m_nodes)
        return;
    if (m_nodeName.isEmpty()) {
        if (m_nodes->count() > 0)
            setNodeName(m_nodes->idAt(0));
        return;
    }
    const QJsonObject node = m_nodes->node(m_nodeName);
    const bool known = !node.isEmpty();
    const QString version = str(obj(node, "metadata"), "resourceVersion");
    if (known != m_nodeKnown || version != m_resourceVersion) {
        m_nodeKnown = known;
        m_resourceVersion = version;
        emit nodeChanged();
        if (!known) {
            m_labels.reset({});
            return;
        }
    }
    if (known && labelsOf(node) != m_labels.original())
        m_labels.rebase(labelsOf(node)); // explains again
}

// ---- identity -----------------------------------------------------------------------------

void NodeLabelEditor::setIdentity(Identity identity)
{
    if (m_identity == identity)
        return;
    m_identity = identity;
    emit identityChanged();
    inputChanged();
}

void NodeLabelEditor::setAgentNode(const QString &node)
{
    if (m_agentNode == node)
        return;
    m_agentNode = node;
    emit identityChanged();
    if (m_identity == NodeAgent)
        inputChanged();
}

void NodeLabelEditor::setCustomUser(const QString &user)
{
    if (m_customUser == user)
        return;
    m_customUser = user;
    emit identityChanged();
    if (m_identity == CustomUser)
        inputChanged();
}

void NodeLabelEditor::setCustomGroups(const QString &groups)
{
    if (m_customGroups == groups)
        return;
    m_customGroups = groups;
    emit identityChanged();
    if (m_identity == CustomUser)
        inputChanged();
}

QVariantList NodeLabelEditor::identityOptions() const
{
    auto option = [](Identity value, const QString &text) {
        return QVariantMap{{QStringLiteral("value"), int(value)}, {QStringLiteral("text"), text}};
    };
    return {option(ClusterAdmin, tr("Cluster admin")), option(NodeAgent, tr("Node agent")),
            option(CustomUser, tr("Custom user")), option(Anonymous, tr("Anonymous"))};
}

QString NodeLabelEditor::identityText() const
{
    auto groupsText = [](const QString &user, const QStringList &groups) {
        return groups.isEmpty() ? tr("%1 · no groups").arg(user)
                                : tr("%1 · groups %2").arg(user, groups.join(QStringLiteral(", ")));
    };
    switch (m_identity) {
    case ClusterAdmin:
        return groupsText(QLatin1String(AdminUser), {QLatin1String(MastersGroup)});
    case NodeAgent:
        return groupsText(QLatin1String(NodeUserPrefix) + m_agentNode.trimmed(),
                          {QLatin1String(NodesGroup)});
    case CustomUser:
        return groupsText(m_customUser.trimmed(), groupList(m_customGroups));
    case Anonymous:
        return tr("%1 · no credentials at all").arg(QStringLiteral("system:anonymous"));
    }
    return {};
}

QString NodeLabelEditor::identityError() const
{
    if (m_identity == NodeAgent && m_agentNode.trimmed().isEmpty())
        return tr("Give the name of the node the agent runs on.");
    if (m_identity == CustomUser && m_customUser.trimmed().isEmpty())
        return tr("Give a user name.");
    return {};
}

// ---- changes ------------------------------------------------------------------------------

void NodeLabelEditor::setNewKey(const QString &key)
{
    if (m_newKey == key)
        return;
    m_newKey = key;
    emit draftChanged();
    edited();
}

void NodeLabelEditor::setNewValue(const QString &value)
{
    if (m_newValue == value)
        return;
    m_newValue = value;
    emit draftChanged();
    if (!m_newKey.trimmed().isEmpty())
        edited();
}

QJsonObject NodeLabelEditor::changes() const
{
    QJsonObject patch = m_labels.changes();
    if (const QString key = m_newKey.trimmed(); !key.isEmpty()) {
        const int row = m_labels.indexOfKey(key);
        const bool same = row >= 0 && m_labels.original().value(key) == QJsonValue(m_newValue) &&
                          !patch.contains(key);
        if (!same)
            patch.insert(key, m_newValue);
    }
    return patch;
}

QString NodeLabelEditor::changesText() const
{
    return QString::fromUtf8(QJsonDocument(changes()).toJson(QJsonDocument::Compact));
}

bool NodeLabelEditor::canApply() const
{
    return ready() && hasChanges() && !m_applying;
}

QJsonObject NodeLabelEditor::requestBody() const
{
    QJsonObject body;
    switch (m_identity) {
    case ClusterAdmin:
        body.insert(QStringLiteral("user"), QLatin1String(AdminUser));
        body.insert(QStringLiteral("groups"), QJsonArray{QLatin1String(MastersGroup)});
        break;
    case NodeAgent:
        body.insert(QStringLiteral("user"), QLatin1String(NodeUserPrefix) + m_agentNode.trimmed());
        body.insert(QStringLiteral("groups"), QJsonArray{QLatin1String(NodesGroup)});
        break;
    case CustomUser:
        body.insert(QStringLiteral("user"), m_customUser.trimmed());
        body.insert(QStringLiteral("groups"),
                    QJsonArray::fromStringList(groupList(m_customGroups)));
        break;
    case Anonymous:
        body.insert(QStringLiteral("anonymous"), true);
        break;
    }
    body.insert(QStringLiteral("node"), m_nodeName);
    body.insert(QStringLiteral("labels"), changes());
    return body;
}

void NodeLabelEditor::setLabelValue(int row, const QString &value)
{
    if (m_labels.setValue(row, value))
        edited();
}

void NodeLabelEditor::removeLabel(int row)
{
    m_labels.remove(row);
    edited();
}

void NodeLabelEditor::restoreLabel(int row)
{
    m_labels.restore(row);
    edited();
}

void NodeLabelEditor::addLabel()
{
    const QString key = m_newKey.trimmed();
    if (key.isEmpty())
        return;
    const QString value = m_newValue;
    m_newKey.clear();
    m_newValue.clear();
    emit draftChanged();
    m_labels.add(key, value); // the change set stays the same
    edited();
}

void NodeLabelEditor::revert()
{
    m_newKey.clear();
    m_newValue.clear();
    emit draftChanged();
    m_labels.reset(m_labels.original());
    edited();
}

void NodeLabelEditor::edited()
{
    clearApplied();
    inputChanged();
}

void NodeLabelEditor::inputChanged()
{
    emit changesChanged();
    if (!ready()) {
        m_pause.stop();
        ++m_generation; // an answer under way is for an input that is gone
        setExplaining(false);
        setVerdict({}, {});
        return;
    }
    m_pause.start();
}

bool NodeLabelEditor::ready() const
{
    return m_client && m_nodeKnown && !m_nodeName.isEmpty() && identityError().isEmpty();
}

// ---- explain ------------------------------------------------------------------------------

void NodeLabelEditor::explain()
{
    m_pause.stop();
    const quint64 generation = ++m_generation;
    if (!ready()) {
        setExplaining(false);
        setVerdict({}, {});
        return;
    }
    setExplaining(true);
    m_client->callApi({"POST", QStringLiteral("/cluster/explain"), {}, requestBody()}, this,
                      [this, generation](const ApiResult &result) {
                          if (generation != m_generation)
                              return; // the input changed since
                          setExplaining(false);
                          if (result.canceled)
                              return;
                          if (result.ok())
                              setVerdict(result.object(), {});
                          else
                              setVerdict({}, result.errorMessage);
                      });
}

int NodeLabelEditor::code() const
{
    return m_verdict.value(QLatin1String("code")).toInt();
}

QString NodeLabelEditor::statusMessage() const
{
    return str(obj(m_verdict, "status"), "message");
}

QVariantList NodeLabelEditor::stages() const
{
    if (m_verdict.isEmpty())
        return {};
    const QString ok = QStringLiteral("ok");
    const QString refused = QStringLiteral("exception");
    const QString skipped = QStringLiteral("cancelled");
    const QString notReached = tr("not reached");
    QVariantList out;

    const QJsonObject authn = obj(m_verdict, "authentication");
    const QString authnDecision = str(authn, "decision");
    const bool authenticated = authnDecision != QLatin1String("unauthorized");
    QString authnDetail;
    if (authenticated) {
        const QJsonObject user = obj(authn, "user");
        const QStringList groups = strings(user.value(QLatin1String("groups")));
        authnDetail = groups.isEmpty()
                          ? tr("%1 · no groups").arg(str(user, "username"))
                          : tr("%1 · groups %2")
                                .arg(str(user, "username"), groups.join(QStringLiteral(", ")));
    } else {
        authnDetail = str(authn, "reason");
        if (authnDetail.isEmpty())
            authnDetail = statusMessage();
    }
    out.append(stage(QStringLiteral("authentication"), tr("Authentication"), authnDecision,
                     authenticated ? ok : refused, str(authn, "authenticator"), authnDetail));

    const QJsonValue authzValue = m_verdict.value(QLatin1String("authorization"));
    if (authzValue.isUndefined()) {
        out.append(stage(QStringLiteral("authorization"), tr("Authorization"), notReached, skipped,
                         QString(),
                         tr("Not reached: the request was refused before authorization.")));
    } else {
        const QJsonObject authz = authzValue.toObject();
        const QString decision = str(authz, "decision");
        const QString decidedBy = str(authz, "decidedBy");
        const QJsonArray steps = authz.value(QLatin1String("steps")).toArray();
        QString reason = str(authz, "reason");
        QStringList opinions;
        for (const QJsonValue s : steps) {
            const QJsonObject step = s.toObject();
            opinions.append(
                QStringLiteral("%1: %2").arg(str(step, "authorizer"), str(step, "decision")));
            if (reason.isEmpty() && str(step, "authorizer") == decidedBy)
                reason = str(step, "reason");
        }
        QString detail;
        if (decision == QLatin1String("allow")) {
            const QJsonObject rbac = obj(authz, "rbac");
            if (!rbac.isEmpty()) {
                QString binding = str(rbac, "bindingName");
                if (const QString ns = str(rbac, "bindingNamespace"); !ns.isEmpty())
                    binding = ns + QLatin1Char('/') + binding;
                const QJsonObject subject = obj(rbac, "subject");
                detail = tr("%1 %2 grants %3 %4, rules[%5], to %6 %7")
                             .arg(str(rbac, "bindingKind"), binding, str(rbac, "roleKind"),
                                  str(rbac, "roleName"))
                             .arg(rbac.value(QLatin1String("ruleIndex")).toInt())
                             .arg(str(subject, "kind"), str(subject, "name"));
            } else if (reason.isEmpty()) {
                detail = tr("Allowed by the %1 authorizer.").arg(decidedBy);
            } else {
                detail = tr("Allowed by %1: %2").arg(decidedBy, reason);
            }
        } else if (!decidedBy.isEmpty()) {
            detail = reason.isEmpty() ? tr("Denied by the %1 authorizer.").arg(decidedBy)
                                      : tr("Denied by %1: %2").arg(decidedBy, reason);
        } else {
            detail = tr("No authorizer allowed it (%1). %2")
                         .arg(opinions.join(QStringLiteral(", ")), statusMessage())
                         .trimmed();
        }
        out.append(stage(QStringLiteral("authorization"), tr("Authorization"), decision,
                         decision == QLatin1String("allow") ? ok : refused, decidedBy, detail));
    }

    const QJsonValue admissionValue = m_verdict.value(QLatin1String("admission"));
    if (admissionValue.isUndefined()) {
        out.append(stage(QStringLiteral("admission"), tr("Admission"), notReached, skipped,
                         QString(), tr("Not reached: the request was refused before admission.")));
    } else {
        const QJsonObject admission = admissionValue.toObject();
        const QString decision = str(admission, "decision");
        // Built-in plugins by name; each admission webhook asked with its own answer.
        QStringList plugins;
        QStringList webhooks;
        for (const QJsonValue v : admission.value(QLatin1String("steps")).toArray()) {
            const QJsonObject s = v.toObject();
            const QString webhook = str(s, "webhook");
            if (webhook.isEmpty()) {
                plugins.append(str(s, "plugin"));
                continue;
            }
            const QString ms =
                QString::number(s.value(QLatin1String("latencyMs")).toDouble(), 'f', 1);
            if (s.value(QLatin1String("ignored")).toBool())
                webhooks.append(
                    tr("Webhook %1: failed in %2 ms, ignored (failurePolicy Ignore): %3")
                        .arg(webhook, ms, str(s, "message")));
            else if (str(s, "decision") == QLatin1String("allow"))
                webhooks.append(
                    s.value(QLatin1String("patched")).toBool()
                        ? tr("Webhook %1: allowed and changed the object (%2 ms)").arg(webhook, ms)
                        : tr("Webhook %1: allowed (%2 ms)").arg(webhook, ms));
            else
                webhooks.append(tr("Webhook %1: refused (%2 ms)").arg(webhook, ms));
        }
        // A cluster:read console: the webhooks were not asked (the server says so).
        if (m_verdict.contains(QLatin1String("webhooksNotAsked")))
            webhooks.append(tr("Admission webhooks were not asked: that needs an admin token with "
                               "cluster:write, so the real answer may differ."));
        if (decision == QLatin1String("allow")) {
            QString detail = plugins.isEmpty()
                                 ? tr("No admission plugin is enabled.")
                                 : tr("Admitted by %1.").arg(plugins.join(QStringLiteral(", ")));
            if (!webhooks.isEmpty())
                detail += QLatin1Char('\n') + webhooks.join(QLatin1Char('\n'));
            out.append(stage(QStringLiteral("admission"), tr("Admission"), decision, ok, QString(),
                             detail));
        } else {
            const QString webhook = str(admission, "webhook");
            QString detail = str(admission, "message");
            if (!webhooks.isEmpty())
                detail += QLatin1Char('\n') + webhooks.join(QLatin1Char('\n'));
            out.append(stage(QStringLiteral("admission"), tr("Admission"), decision, refused,
                             webhook.isEmpty() ? str(admission, "plugin") : webhook, detail));
        }
    }

    const QJsonArray validation = m_verdict.value(QLatin1String("validation")).toArray();
    if (!validation.isEmpty()) {
        QStringList causes;
        for (const QJsonValue c : validation) {
            const QJsonObject cause = c.toObject();
            causes.append(
                str(cause, "field").isEmpty()
                    ? str(cause, "message")
                    : QStringLiteral("%1: %2").arg(str(cause, "field"), str(cause, "message")));
        }
        out.append(stage(QStringLiteral("validation"), tr("Validation"), QStringLiteral("invalid"),
                         refused, QString(), causes.join(QLatin1Char('\n'))));
    }
    return out;
}

QString NodeLabelEditor::verdictSummary() const
{
    const QVariantList all = stages();
    QVariantMap deciding;
    for (const QVariant &s : all) {
        const QVariantMap stage = s.toMap();
        if (stage.value(QStringLiteral("stage")).toString() == QLatin1String("authorization"))
            deciding = stage; // who allowed it, unless a later stage refuses
        if (stage.value(QStringLiteral("family")).toString() == QLatin1String("exception")) {
            deciding = stage;
            break;
        }
    }
    if (deciding.isEmpty())
        return {};
    return tr("%1: %2").arg(deciding.value(QStringLiteral("title")).toString(),
                            deciding.value(QStringLiteral("detail")).toString());
}

void NodeLabelEditor::setExplaining(bool explaining)
{
    if (m_explaining == explaining)
        return;
    m_explaining = explaining;
    emit explainingChanged();
}

void NodeLabelEditor::setVerdict(const QJsonObject &verdict, const QString &error)
{
    if (m_verdict == verdict && m_explainError == error)
        return;
    m_verdict = verdict;
    m_explainError = error;
    emit verdictChanged();
    updateDenial();
}

void NodeLabelEditor::updateDenial()
{
    ClusterDenial denial = ClusterDenial::fromTrace(applied() ? m_applyTrace : m_verdict);
    const bool fromApply = applied();
    if (denial == m_denial && fromApply == m_denialFromApply)
        return;
    m_denial = std::move(denial);
    m_denialFromApply = fromApply;
    emit denialChanged();
}

// ---- apply --------------------------------------------------------------------------------

void NodeLabelEditor::apply()
{
    if (!canApply())
        return;
    m_applying = true;
    m_applyCode = 0;
    m_applyMessage.clear();
    m_applyError.clear();
    m_applyTrace = {};
    emit applyChanged();
    emit changesChanged();
    updateDenial();
    const QString node = m_nodeName;
    m_client->callApi(
        {"POST", QStringLiteral("/cluster/requests"), {}, requestBody()}, this,
        [this, node](const ApiResult &result) {
            m_applying = false;
            if (result.ok()) {
                const QJsonObject answer = result.object();
                m_applyCode = answer.value(QLatin1String("code")).toInt();
                m_applyTrace = answer.value(QLatin1String("trace")).toObject();
                const QJsonValue body = answer.value(QLatin1String("body"));
                const QJsonObject object = body.toObject();
                if (m_applyCode < 300 && str(object, "kind") == QLatin1String("Node")) {
                    m_applyMessage =
                        tr("Labels saved: %1 is at resourceVersion %2.")
                            .arg(node, str(obj(object, "metadata"), "resourceVersion"));
                    if (node == m_nodeName) {
                        m_newKey.clear(); // it went with the request
                        m_newValue.clear();
                        emit draftChanged();
                    }
                    if (m_nodes)
                        m_nodes->upsert(object); // the editor rebases on it
                } else {
                    m_applyMessage = body.isObject() ? str(object, "message") : body.toString();
                }
            } else if (!result.canceled) {
                m_applyError = result.errorMessage;
            }
            emit applyChanged();
            emit changesChanged();
            updateDenial();
            if (m_nodes)
                m_nodes->reloadNode(node);
        });
}

void NodeLabelEditor::clearApplied()
{
    if (m_applyCode == 0 && m_applyMessage.isEmpty() && m_applyError.isEmpty())
        return;
    m_applyCode = 0;
    m_applyMessage.clear();
    m_applyError.clear();
    m_applyTrace = {};
    emit applyChanged();
    updateDenial();
}

void NodeLabelEditor::retranslate()
{
    m_labels.retranslate();
    // The denial's quotes and near misses are translated when made.
    m_denial = ClusterDenial::fromTrace(applied() ? m_applyTrace : m_verdict);
    emit identityOptionsChanged();
    emit identityChanged(); // after the options: a selector bound to identity shows it again
    emit verdictChanged();
    emit denialChanged();
    emit applyChanged();
}

} // namespace Gatehouse::Console
