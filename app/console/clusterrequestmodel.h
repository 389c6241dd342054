#pragma once

#include "adminclient.h"
#include "livestate.h"

#include <QAbstractListModel>
#include <QJsonArray>
#include <QJsonObject>
#include <QPointer>
#include <QSet>

namespace Gatehouse::Console {

// The cluster API's recent decisions, newest first: GET /admin/v1/cluster/requests on every
// (re)connect, then the cluster.requests events (a batch every 250 ms while there is traffic)
// as they come. At most capacity() requests are kept; the filters pick the rows shown.
// A denied request carries the denial explainer's answer (ClusterDenial): who refused it, in
// their own words, and the RBAC bindings naming the requester that did not apply; a row can be
// expanded to show it (the model keeps which, across reloads and filters).
class ClusterRequestModel : public QAbstractListModel
{
    Q_OBJECT
    Q_PROPERTY(int count READ count NOTIFY countChanged)
    Q_PROPERTY(int deniedCount READ deniedCount NOTIFY countChanged)
    Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY loadingChanged)
    // The last failed read's message as the API wrote it (never translated); "" when none.
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(int capacity READ capacity CONSTANT)
    Q_PROPERTY(Gatehouse::Console::LiveState *live READ live CONSTANT)
    // Only refused requests.
    Q_PROPERTY(bool deniedOnly READ deniedOnly WRITE setDeniedOnly NOTIFY filtersChanged)
    // Without the reads the admin API makes as gatehouse-admin (the console's own lists);
    // on by default.
    Q_PROPERTY(
        bool hideAdminReads READ hideAdminReads WRITE setHideAdminReads NOTIFY filtersChanged)
    // How many requests are kept, shown or not.
    Q_PROPERTY(int totalCount READ totalCount NOTIFY countChanged)

public:
    enum Role {
        TimeTextRole = Qt::UserRole + 1,
        UserRole,
        GroupsTextRole,
        MethodRole,
        PathRole,
        VerbRole,
        ResourceRole,
        CodeRole,
        VerdictRole, // allowed, denied
        DeniedRole,
        StageRole, // ok, authentication, authorization, admission, validation, handler
        ReasonRole,
        // The denial explainer (empty for allowed requests):
        DeniedByRole,       // "Node, RBAC", "NodeRestriction"
        DenialHeadlineRole, // "Refused at authorization by Node, RBAC" (translated)
        QuotesRole,         // [{who, decision, text}] (ClusterDenial::quotesOf)
        NearMissesRole,     // ClusterDenial::nearMissesOf
        NearMissCountRole,
        ExpandedRole, // the row shows its explanation (setExpanded)
    };
    Q_ENUM(Role)

    static constexpr int DefaultCapacity = 500;
    static constexpr int LoadLimit = 200;

    explicit ClusterRequestModel(AdminClient *client, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    int count() const { return int(m_rows.size()); }
    int deniedCount() const;
    LiveState *live() { return &m_live; }
    bool loading() const { return m_loading; }
    bool loaded() const { return m_loaded; }
    QString error() const { return m_error; }
    int capacity() const { return m_capacity; }
    void setCapacity(int capacity) { m_capacity = std::max(1, capacity); }
    bool deniedOnly() const { return m_deniedOnly; }
    void setDeniedOnly(bool on);
    bool hideAdminReads() const { return m_hideAdminReads; }
    void setHideAdminReads(bool on);
    int totalCount() const { return int(m_all.size()); }

    Q_INVOKABLE void reload();
    Q_INVOKABLE void clear();
    // Shows or hides a denied row's explanation; allowed rows have none.
    Q_INVOKABLE void setExpanded(int row, bool expanded);
    Q_INVOKABLE void toggleExpanded(int row);
    // The API's items, oldest first (the list's answer).
    void resetFrom(const QJsonArray &items);
    // New requests, oldest first (an event's batch); each goes on top unless already listed.
    void append(const QJsonArray &items);
    void handleEvent(const AdminEvent &event);

    // The language changed: every row's texts did (they are made when read).
    void retranslate();

signals:
    void countChanged();
    void loadingChanged();
    void errorChanged();
    void filtersChanged();

private:
    static QString keyOf(const QJsonObject &item);
    static bool isDenied(const QJsonObject &item);
    bool accepts(const QJsonObject &item) const;
    void refilter();
    void setError(const QString &error);

    QPointer<AdminClient> m_client;
    LiveState m_live;
    int m_capacity = DefaultCapacity;
    quint64 m_generation = 0;
    bool m_loading = false;
    bool m_loaded = false;
    QString m_error;
    bool m_deniedOnly = false;
    bool m_hideAdminReads = true;
    QList<QJsonObject> m_all;  // newest first, at most capacity
    QList<QJsonObject> m_rows; // the ones the filters accept
    QSet<QString> m_keys;      // of m_all, to drop what a reload and an event both bring
    QSet<QString> m_expanded;  // keys of the rows showing their explanation
    QJsonArray m_duringLoad;
};

} // namespace Gatehouse::Console
