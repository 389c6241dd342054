#pragma once

#include <QAbstractListModel>
#include <QVariantList>

namespace Gatehouse::Console {

// The backend's listeners (service, cluster, admin) with their request counters. Updated in
// place, so a counter change is one dataChanged() and delegates stay put.
class ListenerModel : public QAbstractListModel
{
    Q_OBJECT
    Q_PROPERTY(int count READ count NOTIFY countChanged)

public:
    enum Role {
        NameRole = Qt::UserRole + 1,
        TitleRole,
        AddressRole,
        PortRole,
        TlsRole,
        UrlRole,
        RequestsRole,
    };
    Q_ENUM(Role)

    using QAbstractListModel::QAbstractListModel;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;
    int count() const { return rowCount(); }

    // From AdminClient::listeners(): maps with name, title, address, port, tls, url, requests.
    void setListeners(const QVariantList &listeners);
    // Titles made from the name when read (AdminClient::listenerTitle, translated), instead
    // of each map's title, so they follow the language.
    void setTitleFunction(QString (*titleOf)(const QString &name)) { m_titleOf = titleOf; }
    // The language changed: every title did.
    void retranslate();

signals:
    void countChanged();

private:
    struct Listener
    {
        QString name;
        QString title;
        QString address;
        int port = 0;
        bool tls = false;
        QString url;
        qint64 requests = 0;

        bool operator==(const Listener &) const = default;
    };
    QList<Listener> m_listeners;
    QString (*m_titleOf)(const QString &name) = nullptr;
};

} // namespace Gatehouse::Console
