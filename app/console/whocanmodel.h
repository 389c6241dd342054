#pragma once

#include "adminclient.h"

#include <QAbstractListModel>
#include <QJsonObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

namespace Gatehouse::Console {

// The who-can matrix (GET /admin/v1/cluster/who-can?resource=&namespace=&group=): one row per
// subject named by a binding, one column per verb, whether that subject may do it. Asked
// again on query(), on every (re)connect and shortly after any RBAC object changes.
class WhoCanModel : public QAbstractListModel
{
    Q_OBJECT
    Q_PROPERTY(int count READ count NOTIFY resultChanged)
    // The question being edited; query() asks it.
    Q_PROPERTY(QString resource READ resource WRITE setResource NOTIFY inputChanged)
    Q_PROPERTY(QString namespaceName READ namespaceName WRITE setNamespaceName NOTIFY inputChanged)
    Q_PROPERTY(QString apiGroup READ apiGroup WRITE setApiGroup NOTIFY inputChanged)
    // The columns of the answer, in the server's order.
    Q_PROPERTY(QStringList verbs READ verbs NOTIFY resultChanged)
    // What the answer is about: "nodes, cluster-wide", "pods in namespace shop".
    Q_PROPERTY(QString answeredText READ answeredText NOTIFY resultChanged)
    Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
    // The server's refusal as it wrote it (never translated); "" when none.
    Q_PROPERTY(QString error READ error NOTIFY resultChanged)

public:
    enum Role {
        KindRole = Qt::UserRole + 1, // User, Group, ServiceAccount
        NameRole,
        NamespaceRole,
        SubjectTextRole, // "Group system:masters", "ServiceAccount shop/default"
        AllowedRole,     // QVariantList of bool, in verbs() order
        AllowedCountRole,
        AllowedVerbsTextRole, // "get, list, patch"; "" when none
    };
    Q_ENUM(Role)

    static constexpr int ReloadDelayMs = 250;

    explicit WhoCanModel(AdminClient *client, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    int count() const { return int(m_subjects.size()); }
    QString resource() const { return m_resource; }
    void setResource(const QString &resource);
    QString namespaceName() const { return m_namespace; }
    void setNamespaceName(const QString &ns);
    QString apiGroup() const { return m_apiGroup; }
    void setApiGroup(const QString &group);
    QStringList verbs() const { return m_verbs; }
    QString answeredText() const;
    bool loading() const { return m_loading; }
    QString error() const { return m_error; }

    Q_INVOKABLE void query();
    // Whether the subject in row may do verb (false when either is unknown).
    Q_INVOKABLE bool allowed(int row, const QString &verb) const;
    // The server's answer (tests, and query()'s).
    void setAnswer(const QJsonObject &answer);

    // The language changed: every row's texts and answeredText() did.
    void retranslate();

signals:
    void inputChanged();
    void resultChanged();
    void loadingChanged();

private:
    void setLoading(bool loading);
    void rerun(); // the last question again, for RBAC changes
    void ask(const QString &resource, const QString &ns, const QString &group);

    QPointer<AdminClient> m_client;
    QTimer m_reloadSoon;
    quint64 m_generation = 0;
    QString m_resource = QStringLiteral("nodes");
    QString m_namespace;
    QString m_apiGroup;
    QJsonObject m_asked; // {resource, namespace, group} of the answer shown
    QStringList m_verbs;
    QList<QJsonObject> m_subjects;
    bool m_loading = false;
    QString m_error;
};

} // namespace Gatehouse::Console
