#pragma once

#include "livelistmodel.h"

#include <QHash>

namespace Gatehouse::Console {

// Every backend setting (GET /admin/v1/settings; docs/settings.md): its value in effect,
// default, where it came from, and whether a change applies live or at the next start.
// apply() changes one (PUT), reset() drops a value kept for the next start (DELETE); the
// server's refusal stays on the setting's row (error role) until the next try. setting.changed
// events keep the rows current; cluster.settings.changed (a change elsewhere) reloads.
class SettingsModel : public Gatehouse::Console::LiveListModel
{
    Q_OBJECT
    // Case-insensitive; matches the key, the description or the value.
    Q_PROPERTY(QString filter READ filter WRITE setFilter NOTIFY filterChanged)
    // Some change waits for the next start of the backend.
    Q_PROPERTY(bool restartRequired READ restartRequired NOTIFY restartRequiredChanged)
    // The key being changed, "" when none.
    Q_PROPERTY(QString busyKey READ busyKey NOTIFY busyKeyChanged)

public:
    enum Role {
        KeyRole = Qt::UserRole + 1,
        GroupRole,
        GroupTitleRole,
        TypeRole, // bool, duration, list, number, url, text
        DescriptionRole,
        ValueRole,
        DefaultRole,
        SourceRole,
        SourceTextRole,
        LiveRole,
        PendingRole, // the value kept for the next start, "" when none
        RestartRequiredRole,
        EditableRole,
        EnvironmentRole,
        ErrorRole, // the server's refusal of the last change, "" when none
    };
    Q_ENUM(Role)

    explicit SettingsModel(AdminClient *client, QObject *parent = nullptr);

    QHash<int, QByteArray> roleNames() const override;
    QString filter() const { return m_filter; }
    void setFilter(const QString &filter);
    bool restartRequired() const { return m_restartRequired; }
    QString busyKey() const { return m_busyKey; }

    Q_INVOKABLE void apply(const QString &key, const QString &value);
    Q_INVOKABLE void reset(const QString &key);
    Q_INVOKABLE QString errorOf(const QString &key) const { return m_errors.value(key); }
    // The group of a row ("" outside the list): where a heading goes.
    Q_INVOKABLE QString groupAt(int row) const
    {
        return rowAt(row).value(QLatin1String("group")).toString();
    }

    static QString groupTitle(const QString &group);

signals:
    void filterChanged();
    void restartRequiredChanged();
    void busyKeyChanged();
    // A change the server took (for a confirmation on screen).
    void applied(const QString &key, bool live);

protected:
    QVariant value(const QJsonObject &row, int role) const override;
    ApiCall listCall() const override;
    bool accepts(const QJsonObject &row) const override;
    // Grouped (listeners, limits, oauth, webhooks, cluster, storage), else the API's order.
    bool listedBefore(const QJsonObject &a, const QJsonObject &b) const override;
    void applyEvent(const AdminEvent &event) override;

private:
    void change(const ApiCall &call, const QString &key);
    void setRowError(const QString &key, const QString &message);
    void setBusyKey(const QString &key);
    void updateRestartRequired();

    QString m_filter;
    QString m_busyKey;
    bool m_restartRequired = false;
    QHash<QString, QString> m_errors;
};

} // namespace Gatehouse::Console
