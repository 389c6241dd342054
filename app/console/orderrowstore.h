#pragma once

#include "jsonlistmodel.h"

#include <QByteArray>
#include <QHash>
#include <QStringList>
#include <QUuid>

namespace Gatehouse::Console {

// The Orders list's rows, about 80 bytes each instead of a QJsonObject's 1.2 KB, so that all
// 100,000 orders of a busy backend fit in the console's memory: ids as 16-byte UUIDs, times
// as milliseconds, customer ids and names, statuses and callback URLs kept once for all rows,
// customer references side by side in one buffer. A row reads back exactly as it was put in;
// one that would not (a field this layout does not know, an id that is not a UUID, a time
// that is not in the API's form) is kept as the object itself.
class OrderRowStore final : public JsonRowStore
{
public:
    qsizetype size() const override { return m_rows.size(); }
    QJsonObject at(qsizetype row) const override;
    QString idAt(qsizetype row) const override;
    qsizetype indexOfId(const QString &id) const override;
    bool equals(qsizetype row, const QJsonObject &object) const override;
    void reset(const QList<QJsonObject> &rows) override;
    void insert(qsizetype row, const QJsonObject &object) override;
    void replace(qsizetype row, const QJsonObject &object) override;
    void remove(qsizetype row) override;

    // How many rows are kept as objects (the rest are packed); for tests.
    qsizetype unpackedCount() const;

private:
    struct Row
    {
        QUuid id;
        qint64 created = 0;  // ms since the epoch, UTC
        qint64 modified = 0; // ms since the epoch, UTC
        qint32 version = 0;
        qint32 quantity = 0;
        qint32 lineCount = 0;
        qint32 reference = -1;  // offset in m_references; -1: no customerRef, -2: null
        quint32 customerId = 0; // these four: 1 + index in m_strings, 0: no such field
        quint32 customerName = 0;
        quint32 status = 0;
        quint32 callbackUrl = 0;
        quint16 referenceLength = 0;
        quint16 present = 0; // which of the optional fields the object has (Field bits)
        qint32 object = -1;  // index in m_objects: kept as the object itself
    };

    Row pack(const QJsonObject &object);
    QJsonObject unpack(const Row &row) const;
    quint32 intern(const QJsonValue &value);
    QString string(quint32 interned) const;

    QList<Row> m_rows;
    QStringList m_strings;
    QHash<QString, quint32> m_stringIndex;
    QByteArray m_references; // UTF-8, one after the other
    QList<QJsonObject> m_objects;
};

} // namespace Gatehouse::Console
