#pragma once

#include "adminclient.h"
#include "clusterdenial.h"
#include "nodelabelmodel.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QVariantList>

namespace Gatehouse::Console {

class ClusterSettingsState;
class NodeListModel;

// The Nodes page's editor: one node's labels as edited, an identity to act as, and the
// server's verdict on the pending label change. Every edit asks POST /admin/v1/cluster/explain
// again once typing pauses (nothing is stored there; a settings or RBAC change asks again too) and
// shows its trace as three stages: authentication, authorization (which binding, role and rule
// allowed it, or why nothing did) and admission (NodeRestriction's own message), and for a refusal
// why: the refusing stage, the authorizers' or admission plugin's own words, and the RBAC bindings
// that name the identity but did not apply (the denial explainer). apply() sends the same request
// for real (POST /admin/v1/cluster/requests) and shows its answer; the node is then read again.
class NodeLabelEditor : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString nodeName READ nodeName WRITE setNodeName NOTIFY nodeChanged)
    // The node is in the node list (its labels are known).
    Q_PROPERTY(bool nodeKnown READ nodeKnown NOTIFY nodeChanged)
    Q_PROPERTY(QString resourceVersion READ resourceVersion NOTIFY nodeChanged)
    Q_PROPERTY(Gatehouse::Console::NodeLabelModel *labels READ labels CONSTANT)

    Q_PROPERTY(Identity identity READ identity WRITE setIdentity NOTIFY identityChanged)
    // The node a node agent runs on (system:node:<agentNode>); follows the selected node.
    Q_PROPERTY(QString agentNode READ agentNode WRITE setAgentNode NOTIFY identityChanged)
    Q_PROPERTY(QString customUser READ customUser WRITE setCustomUser NOTIFY identityChanged)
    // Comma-separated.
    Q_PROPERTY(QString customGroups READ customGroups WRITE setCustomGroups NOTIFY identityChanged)
    // [{value, text}] for the identity selector, in Identity order.
    Q_PROPERTY(QVariantList identityOptions READ identityOptions NOTIFY identityOptionsChanged)
    // "system:node:node-1 · groups system:nodes"
    Q_PROPERTY(QString identityText READ identityText NOTIFY identityChanged)
    // What is missing for the identity (translated); "" when it is complete.
    Q_PROPERTY(QString identityError READ identityError NOTIFY identityChanged)

    // The label being typed in the "add" row; it is part of the change set while its key is set.
    Q_PROPERTY(QString newKey READ newKey WRITE setNewKey NOTIFY draftChanged)
    Q_PROPERTY(QString newValue READ newValue WRITE setNewValue NOTIFY draftChanged)
    Q_PROPERTY(bool hasChanges READ hasChanges NOTIFY changesChanged)
    // The change set as the request sends it: {"foo":"bar","old":null}.
    Q_PROPERTY(QString changesText READ changesText NOTIFY changesChanged)
    Q_PROPERTY(bool canApply READ canApply NOTIFY changesChanged)

    Q_PROPERTY(bool explaining READ explaining NOTIFY explainingChanged)
    // A verdict is there (it may be for the previous input while explaining).
    Q_PROPERTY(bool explained READ explained NOTIFY verdictChanged)
    // The admin API refused the explain call (its message, untranslated); "" otherwise.
    Q_PROPERTY(QString explainError READ explainError NOTIFY verdictChanged)
    Q_PROPERTY(int code READ code NOTIFY verdictChanged) // what the request would answer
    Q_PROPERTY(QString codeText READ codeText NOTIFY verdictChanged) // "403 Forbidden"
    Q_PROPERTY(bool allowed READ allowed NOTIFY verdictChanged)
    // The Kubernetes Status message of a refusal, verbatim; "" when allowed.
    Q_PROPERTY(QString statusMessage READ statusMessage NOTIFY verdictChanged)
    // [{stage, title, decision, family, source, detail}]: authentication, authorization,
    // admission, and validation when the change is invalid. decision is the server's word
    // ("allow", "deny", "authenticated", ...) or "not reached"; family picks the colour (ok,
    // exception, cancelled); detail is the binding, rule or reason, server messages verbatim.
    Q_PROPERTY(QVariantList stages READ stages NOTIFY verdictChanged)
    // The deciding stage in one line: the first refusing stage ("Admission: nodes ... is
    // forbidden: ..."), else who allowed it.
    Q_PROPERTY(QString verdictSummary READ verdictSummary NOTIFY verdictChanged)

    // Why the request is refused (docs/cluster.md, "Why denied"): from the real answer once
    // applied, else from the dry run; nothing when it is (or would be) allowed.
    Q_PROPERTY(bool hasDenial READ hasDenial NOTIFY denialChanged)
    // The explanation is the real answer's (apply), not the dry run's.
    Q_PROPERTY(bool denialFromApply READ denialFromApply NOTIFY denialChanged)
    // authentication, authorization, admission, validation or handler (the server's word).
    Q_PROPERTY(QString denialStage READ denialStage NOTIFY denialChanged)
    Q_PROPERTY(QString denialStageTitle READ denialStageTitle NOTIFY denialChanged) // translated
    // The authorizers that ran ("Node, RBAC") or the refusing admission plugin; "" otherwise.
    Q_PROPERTY(QString deniedBy READ deniedBy NOTIFY denialChanged)
    // "Refused at authorization by Node, RBAC" (translated).
    Q_PROPERTY(QString denialHeadline READ denialHeadline NOTIFY denialChanged)
    // The Status message (authentication: its reason), verbatim.
    Q_PROPERTY(QString denialMessage READ denialMessage NOTIFY denialChanged)
    // [{who, decision, text}]: the refusing authorizers' own words, or the other stages' (the
    // admission plugin's message, the authentication reason, the Status message).
    Q_PROPERTY(QVariantList denialQuotes READ denialQuotes NOTIFY denialChanged)
    // The RBAC bindings naming the identity that did not apply, each with why
    // (ClusterDenial::nearMissesOf); empty unless authorization refused.
    Q_PROPERTY(QVariantList nearMisses READ nearMisses NOTIFY denialChanged)
    Q_PROPERTY(int nearMissCount READ nearMissCount NOTIFY denialChanged)

    Q_PROPERTY(bool applying READ applying NOTIFY applyChanged)
    // There is a real answer to show.
    Q_PROPERTY(bool applied READ applied NOTIFY applyChanged)
    Q_PROPERTY(int applyCode READ applyCode NOTIFY applyChanged)
    Q_PROPERTY(QString applyCodeText READ applyCodeText NOTIFY applyChanged)
    // "Labels saved: node-1 is at resourceVersion 31." or the Status message, verbatim.
    Q_PROPERTY(QString applyMessage READ applyMessage NOTIFY applyChanged)
    // The admin API refused the call itself (its message, untranslated); "" otherwise.
    Q_PROPERTY(QString applyError READ applyError NOTIFY applyChanged)

public:
    enum Identity {
        ClusterAdmin, // gatehouse-admin in system:masters, what the admin API itself acts as
        NodeAgent,    // system:node:<agentNode> in system:nodes, a kubelet
        CustomUser,
        Anonymous,
    };
    Q_ENUM(Identity)

    static constexpr int PauseMs = 250; // after the last keystroke, before explaining

    NodeLabelEditor(AdminClient *client, NodeListModel *nodes, QObject *parent = nullptr);

    // Settings changes (anonymous access) explain again.
    void setClusterSettings(ClusterSettingsState *settings);
    // "403 Forbidden"; the code alone when it has no common name.
    static QString httpCodeText(int code);

    QString nodeName() const { return m_nodeName; }
    void setNodeName(const QString &name);
    bool nodeKnown() const { return m_nodeKnown; }
    QString resourceVersion() const { return m_resourceVersion; }
    NodeLabelModel *labels() { return &m_labels; }

    Identity identity() const { return m_identity; }
    void setIdentity(Identity identity);
    QString agentNode() const { return m_agentNode; }
    void setAgentNode(const QString &node);
    QString customUser() const { return m_customUser; }
    void setCustomUser(const QString &user);
    QString customGroups() const { return m_customGroups; }
    void setCustomGroups(const QString &groups);
    QVariantList identityOptions() const;
    QString identityText() const;
    QString identityError() const;

    QString newKey() const { return m_newKey; }
    void setNewKey(const QString &key);
    QString newValue() const { return m_newValue; }
    void setNewValue(const QString &value);
    bool hasChanges() const { return !changes().isEmpty(); }
    QString changesText() const;
    bool canApply() const;

    bool explaining() const { return m_explaining; }
    bool explained() const { return !m_verdict.isEmpty(); }
    QString explainError() const { return m_explainError; }
    int code() const;
    QString codeText() const { return explained() ? httpCodeText(code()) : QString(); }
    bool allowed() const { return explained() && code() < 400; }
    QString statusMessage() const;
    QVariantList stages() const;
    QString verdictSummary() const;

    bool hasDenial() const { return !m_denial.isEmpty(); }
    bool denialFromApply() const { return hasDenial() && m_denialFromApply; }
    QString denialStage() const { return m_denial.stage; }
    QString denialStageTitle() const { return ClusterDenial::stageTitle(m_denial.stage); }
    QString deniedBy() const { return m_denial.by; }
    QString denialHeadline() const { return m_denial.headline(); }
    QString denialMessage() const { return m_denial.message; }
    QVariantList denialQuotes() const { return m_denial.quotes; }
    QVariantList nearMisses() const { return m_denial.nearMisses; }
    int nearMissCount() const { return int(m_denial.nearMisses.size()); }

    bool applying() const { return m_applying; }
    bool applied() const { return m_applyCode != 0; }
    int applyCode() const { return m_applyCode; }
    QString applyCodeText() const { return applied() ? httpCodeText(m_applyCode) : QString(); }
    QString applyMessage() const { return m_applyMessage; }
    QString applyError() const { return m_applyError; }

    // Editing (each explains again after the pause).
    Q_INVOKABLE void setLabelValue(int row, const QString &value);
    Q_INVOKABLE void removeLabel(int row);
    Q_INVOKABLE void restoreLabel(int row);
    // Moves the "add" row's label into the table.
    Q_INVOKABLE void addLabel();
    // Drops every edit.
    Q_INVOKABLE void revert();
    // Explains now instead of after the pause.
    Q_INVOKABLE void explain();
    Q_INVOKABLE void apply();
    // The language changed: the texts made from the verdict and the answer are made again
    // (nothing is asked again).
    void retranslate();

    // The pending change set: the table's and the "add" row's.
    QJsonObject changes() const;
    // What explain() and apply() post.
    QJsonObject requestBody() const;

signals:
    void identityOptionsChanged();
    void nodeChanged();
    void identityChanged();
    void draftChanged();
    void changesChanged();
    void explainingChanged();
    void verdictChanged();
    void applyChanged();
    void denialChanged();

private:
    bool ready() const; // a known node and a complete identity
    void syncNode();
    void edited();       // by the user: the last real answer no longer applies
    void inputChanged(); // anything the verdict depends on
    void setExplaining(bool explaining);
    void setVerdict(const QJsonObject &verdict, const QString &error);
    void clearApplied();
    void updateDenial(); // from the real answer once applied, else from the verdict

    QPointer<AdminClient> m_client;
    QPointer<NodeListModel> m_nodes;
    NodeLabelModel m_labels;
    QTimer m_pause;
    quint64 m_generation = 0; // of the newest explain call; older answers are dropped

    QString m_nodeName;
    bool m_nodeKnown = false;
    QString m_resourceVersion;
    Identity m_identity = NodeAgent;
    QString m_agentNode;
    QString m_customUser;
    QString m_customGroups;
    QString m_newKey;
    QString m_newValue;

    bool m_explaining = false;
    QJsonObject m_verdict;
    QString m_explainError;

    bool m_applying = false;
    int m_applyCode = 0;
    QString m_applyMessage;
    QString m_applyError;
    QJsonObject m_applyTrace; // the real answer's trace

    ClusterDenial m_denial;
    bool m_denialFromApply = false;
};

} // namespace Gatehouse::Console
