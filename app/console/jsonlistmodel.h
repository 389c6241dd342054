#pragma once

#include <QAbstractListModel>
#include <QJsonObject>
#include <QList>

namespace Gatehouse::Console {

// A list model over JSON objects as the admin API sends them. Subclasses name the roles and
// compute each role's value from the object; rows are identified by their "id".
// Subclasses name this base fully qualified (public Gatehouse::Console::JsonListModel):
// Qt 6.4's qmltyperegistrar does not resolve a base class named relative to the namespace,
// and QML tooling would then not know the inherited properties (count, loading, ...).
class JsonListModel : public QAbstractListModel
{
    Q_OBJECT
    Q_PROPERTY(int count READ count NOTIFY countChanged)

public:
    using QAbstractListModel::QAbstractListModel;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;

    int count() const { return int(m_rows.size()); }
    const QList<QJsonObject> &rows() const { return m_rows; }
    // The row's object, empty for an invalid row.
    QJsonObject rowAt(int row) const { return m_rows.value(row); }
    // The row with this id, -1 if there is none.
    Q_INVOKABLE int indexOfId(const QString &id) const;
    Q_INVOKABLE QString idAt(int row) const;

    // Replaces every row (one model reset).
    void setRows(QList<QJsonObject> rows);

    // The language changed: every row's texts did (values are computed when read, so one
    // dataChanged over all rows). Subclasses also re-announce their translated properties.
    virtual void retranslate();

signals:
    void countChanged();

protected:
    // The value of role for one row; Qt::DisplayRole is asked too.
    virtual QVariant value(const QJsonObject &row, int role) const = 0;
    virtual QString idOf(const QJsonObject &row) const;

    void insertRowAt(int row, const QJsonObject &object);
    void appendRows(QList<QJsonObject> rows);              // one rowsInserted at the end
    void replaceRowAt(int row, const QJsonObject &object); // one dataChanged, when it differs
    void removeRowAt(int row);

private:
    QList<QJsonObject> m_rows;
};

} // namespace Gatehouse::Console
