#pragma once

#include <QAbstractListModel>
#include <QJsonObject>
#include <QList>

namespace Gatehouse::Console {

// The labels of one node as the user edits them: the node's own labels (by key), then the
// ones added here, in the order they were added. changes() is the pending change set as a JSON
// merge patch of metadata.labels (a new value, or null to remove a key).
class NodeLabelModel : public QAbstractListModel
{
    Q_OBJECT
    Q_PROPERTY(int count READ count NOTIFY countChanged)

public:
    enum Role {
        KeyRole = Qt::UserRole + 1,
        ValueRole,         // as edited ("" for a removed label)
        OriginalValueRole, // the node's value; "" for an added label
        StateRole,         // "unchanged", "changed", "added", "removed"
        StateTextRole,     // translated
        IsNewRole,         // added here (the node does not have it)
        IsRemovedRole,
    };
    Q_ENUM(Role)

    explicit NodeLabelModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;
    int count() const { return int(m_rows.size()); }

    // The node's labels, dropping every edit (another node, or Revert).
    void reset(const QJsonObject &labels);
    // The node changed on the server: its labels become the new originals, and the edits stay
    // (an edit that now matches the node is no longer a change).
    void rebase(const QJsonObject &labels);
    QJsonObject original() const { return m_original; }

    // False when row is not there or the value is what it already was.
    bool setValue(int row, const QString &value);
    // A key the node has gets this value (and is no longer removed); another key is added.
    void add(const QString &key, const QString &value);
    // A label of the node is marked removed; an added one is dropped.
    void remove(int row);
    // Back to the node's value.
    void restore(int row);
    int indexOfKey(const QString &key) const;

    QJsonObject changes() const;
    bool hasChanges() const { return !changes().isEmpty(); }

    // The language changed: every row's state text did.
    void retranslate();

signals:
    void countChanged();
    void changed(); // any edit or new labels

private:
    struct Label
    {
        QString key;
        QString value;
        QString original;
        bool existed = false; // the node has this key
        bool removed = false;
    };
    static QString state(const Label &label);
    static QList<Label> rowsFor(const QJsonObject &labels);
    void replaceRows(QList<Label> rows);

    QJsonObject m_original;
    QList<Label> m_rows;
};

} // namespace Gatehouse::Console
