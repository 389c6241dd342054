#pragma once

#include "livelistmodel.h"

#include <QVariantList>

namespace Gatehouse::Console {

// The audit log (GET /admin/v1/audit, docs/audit.md), newest first, live: every audit.entry
// event inserts its entry at the top. The kind filter is the API's (exact); the target and
// actor filters are case-insensitive substrings applied here (the API matches them exactly,
// and an actor reads "alice (gatehouse-admin-cli/0.1.0 from 127.0.0.1)"). loadOlder() pages
// back with before=<the oldest id shown>.
class AuditLogModel : public Gatehouse::Console::LiveListModel
{
    Q_OBJECT
    Q_PROPERTY(QString kindFilter READ kindFilter WRITE setKindFilter NOTIFY kindFilterChanged)
    Q_PROPERTY(
        QString targetFilter READ targetFilter WRITE setTargetFilter NOTIFY targetFilterChanged)
    Q_PROPERTY(QString actorFilter READ actorFilter WRITE setActorFilter NOTIFY actorFilterChanged)
    // [{value, text}] for the kind combo box, "All kinds" first.
    Q_PROPERTY(QVariantList kindOptions READ kindOptions NOTIFY kindOptionsChanged)
    // False once a page came back shorter than asked (nothing older is left).
    Q_PROPERTY(bool hasOlder READ hasOlder NOTIFY pagingChanged)
    Q_PROPERTY(bool loadingOlder READ loadingOlder NOTIFY pagingChanged)

public:
    static constexpr int PageSize = 100;

    enum Role {
        IdRole = Qt::UserRole + 1,
        AtTextRole,
        ActorRole,     // as recorded: "alice (gatehouse-admin-cli/0.1.0 from 127.0.0.1)"
        ActorNameRole, // the part before the program: "alice"
        KindRole,
        ActionRole,
        TargetRole,
        MethodRole,
        PathRole,
        StatusRole,
        ChangedFieldsRole, // "labels.rack, scope" (at most a few, then "+N")
        ChangeCountRole,
        SummaryRole, // consequences.summary, "" when none
    };
    Q_ENUM(Role)

    explicit AuditLogModel(AdminClient *client, QObject *parent = nullptr);

    QHash<int, QByteArray> roleNames() const override;

    QString kindFilter() const { return m_kindFilter; }
    void setKindFilter(const QString &kind);
    QString targetFilter() const { return m_targetFilter; }
    void setTargetFilter(const QString &text);
    QString actorFilter() const { return m_actorFilter; }
    void setActorFilter(const QString &text);
    QVariantList kindOptions() const;
    void retranslate() override;
    bool hasOlder() const { return m_hasOlder; }
    bool loadingOlder() const { return m_loadingOlder; }

    // The next page of older entries (before the oldest shown), appended at the end.
    Q_INVOKABLE void loadOlder();
    // The entries of a page, appended below the rows (used by loadOlder; tests feed it).
    void appendOlder(const QJsonArray &items);

    // "labels.rack, scope +2" for an entry's changes.
    static QString changedFieldsText(const QJsonArray &changes, int shown = 3);
    // "alice" of "alice (gatehouse-admin-cli/0.1.0 from 127.0.0.1)".
    static QString actorName(const QString &actor);

signals:
    void kindOptionsChanged(); // the language changed
    void kindFilterChanged();
    void targetFilterChanged();
    void actorFilterChanged();
    void pagingChanged();

protected:
    QVariant value(const QJsonObject &row, int role) const override;
    ApiCall listCall() const override;
    bool accepts(const QJsonObject &row) const override;
    bool listedBefore(const QJsonObject &a, const QJsonObject &b) const override;
    void applyEvent(const AdminEvent &event) override;

private:
    void setPaging(bool hasOlder, bool loadingOlder);

    QString m_kindFilter;
    QString m_targetFilter;
    QString m_actorFilter;
    bool m_hasOlder = true;
    bool m_loadingOlder = false;
    quint64 m_olderGeneration = 0;
};

// The entry the Audit page has selected: GET /admin/v1/audit/{id} with its field-by-field
// changes and what it caused (consequences), read again when the connection comes back.
class AuditDetail : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString entryId READ entryId WRITE setEntryId NOTIFY entryIdChanged)
    Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY changed)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(QString atText READ atText NOTIFY changed)
    Q_PROPERTY(QString actor READ actor NOTIFY changed)
    Q_PROPERTY(QString kind READ kind NOTIFY changed)
    Q_PROPERTY(QString action READ action NOTIFY changed)
    Q_PROPERTY(QString target READ target NOTIFY changed)
    Q_PROPERTY(QString request READ request NOTIFY changed) // "PATCH /admin/v1/... → 200"
    // [{field, before, after, change}]: values as text ("" for none), change "added",
    // "removed" or "changed".
    Q_PROPERTY(QVariantList changes READ changes NOTIFY changed)
    // consequences.summary as the server wrote it; "" when the kind has none.
    Q_PROPERTY(QString consequenceSummary READ consequenceSummary NOTIFY changed)
    Q_PROPERTY(QString consequenceUntilText READ consequenceUntilText NOTIFY changed)
    // [{text, atText, failed}], one line per item.
    Q_PROPERTY(QVariantList consequenceItems READ consequenceItems NOTIFY changed)
    // The earlier cluster requests the change turned, decided again right after it:
    // [{text, reason, nowAllowed, requests, atText}] (docs/audit.md "Verdicts changed").
    Q_PROPERTY(QVariantList verdictChanges READ verdictChanges NOTIFY changed)

public:
    explicit AuditDetail(AdminClient *client, QObject *parent = nullptr);

    QString entryId() const { return m_entryId; }
    void setEntryId(const QString &id);
    bool loading() const { return m_loading; }
    bool loaded() const { return !m_entry.isEmpty(); }
    QString error() const { return m_error; }
    QString atText() const;
    QString actor() const;
    QString kind() const;
    QString action() const;
    QString target() const;
    QString request() const;
    QVariantList changes() const { return m_changes; }
    QString consequenceSummary() const;
    QString consequenceUntilText() const;
    QVariantList consequenceItems() const { return m_items; }
    QVariantList verdictChanges() const { return m_verdictChanges; }

    Q_INVOKABLE void reload();
    Q_INVOKABLE void clearError();
    // The language changed: the entry's texts are made again.
    void retranslate();
    // An entry as the API answers it (also for tests).
    void apply(const QJsonObject &entry);

    // A JSON value as one line of text: strings as they are, others compact JSON, null "".
    // One consequence item (a token, a cluster request, a delivery attempt) as a line.
    static QVariantMap itemLine(const QJsonObject &item);
    // One turned request of consequences.verdictChanges as a line.
    static QVariantMap verdictChangeLine(const QJsonObject &change);

signals:
    void entryIdChanged();
    void loadingChanged();
    void errorChanged();
    void changed();

private:
    void setLoading(bool loading);
    void setError(const QString &error);

    QPointer<AdminClient> m_client;
    QString m_entryId;
    QJsonObject m_entry;
    QVariantList m_changes;
    QVariantList m_items;
    QVariantList m_verdictChanges;
    quint64 m_generation = 0;
    bool m_loading = false;
    QString m_error;
};

} // namespace Gatehouse::Console
