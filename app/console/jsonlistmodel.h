#pragma once

#include <QAbstractListModel>
#include <QJsonObject>
#include <QList>

#include <memory>

namespace Gatehouse::Console {

// Where a JsonListModel with very many rows keeps them, in a compact form of its own (the
// Orders list holds up to 100,000): the model hands it objects and reads them back, exactly
// as they were handed in. Rows are identified by the model's "id".
class JsonRowStore
{
public:
    virtual ~JsonRowStore() = default;
    virtual qsizetype size() const = 0;
    virtual QJsonObject at(qsizetype row) const = 0;
    virtual QString idAt(qsizetype row) const = 0;
    // The row with this id, -1 if there is none.
    virtual qsizetype indexOfId(const QString &id) const = 0;
    virtual bool equals(qsizetype row, const QJsonObject &object) const = 0;
    virtual void reset(const QList<QJsonObject> &rows) = 0;
    virtual void insert(qsizetype row, const QJsonObject &object) = 0;
    virtual void replace(qsizetype row, const QJsonObject &object) = 0;
    virtual void remove(qsizetype row) = 0;
};

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

    int count() const { return int(m_store ? m_store->size() : m_rows.size()); }
    // Every row's object; only for models without a row store (rowAt() works for all).
    const QList<QJsonObject> &rows() const;
    // The row's object, empty for an invalid row.
    QJsonObject rowAt(int row) const;
    // The row with this id, -1 if there is none.
    Q_INVOKABLE int indexOfId(const QString &id) const;
    Q_INVOKABLE QString idAt(int row) const;

    // Replaces every row (one model reset).
    void setRows(QList<QJsonObject> rows);
    // Whether the rows are these objects, in this order.
    bool hasRows(const QList<QJsonObject> &rows) const;

    // The language changed: every row's texts did (values are computed when read, so one
    // dataChanged over all rows). Subclasses also re-announce their translated properties.
    virtual void retranslate();

signals:
    void countChanged();

protected:
    // Keeps the rows in this store from now on (call before the first rows arrive).
    void setRowStore(std::unique_ptr<JsonRowStore> store);
    bool hasRowStore() const { return m_store != nullptr; }

    // The value of role for one row; Qt::DisplayRole is asked too.
    virtual QVariant value(const QJsonObject &row, int role) const = 0;
    virtual QString idOf(const QJsonObject &row) const;

    void insertRowAt(int row, const QJsonObject &object);
    void appendRows(QList<QJsonObject> rows);              // one rowsInserted at the end
    void replaceRowAt(int row, const QJsonObject &object); // one dataChanged, when it differs
    void removeRowAt(int row);

private:
    void rowsChanged() const { m_cachedRow = -1; }

    QList<QJsonObject> m_rows; // without a store
    std::unique_ptr<JsonRowStore> m_store;
    // A delegate asks for every role of one row in turn: a store's row is read back once.
    mutable int m_cachedRow = -1;
    mutable QJsonObject m_cached;
};

} // namespace Gatehouse::Console
