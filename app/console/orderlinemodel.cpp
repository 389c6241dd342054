#include "orderlinemodel.h"

#include "beerlistmodel.h"

namespace Gatehouse::Console {

OrderLineModel::OrderLineModel(QObject *parent) : JsonListModel(parent) {}

QHash<int, QByteArray> OrderLineModel::roleNames() const
{
    return {
        {UpcRole, "upc"},
        {BeerIdRole, "beerId"},
        {BeerNameRole, "beerName"},
        {InCatalogRole, "inCatalog"},
        {OrderQuantityRole, "orderQuantity"},
        {QuantityAllocatedRole, "quantityAllocated"},
        {FullyAllocatedRole, "fullyAllocated"},
    };
}

void OrderLineModel::setBeers(BeerListModel *beers)
{
    if (m_beers)
        m_beers->disconnect(this);
    m_beers = beers;
    if (!beers)
        return;
    auto refreshNames = [this] {
        if (count() > 0)
            emit dataChanged(index(0), index(count() - 1), {BeerNameRole});
    };
    connect(beers, &QAbstractItemModel::modelReset, this, refreshNames);
    connect(beers, &QAbstractItemModel::rowsInserted, this, refreshNames);
}

void OrderLineModel::setLines(const QJsonArray &lines)
{
    QList<QJsonObject> next;
    next.reserve(lines.size());
    for (const QJsonValue line : lines)
        next.append(line.toObject());
    if (next != rows())
        setRows(std::move(next));
}

QVariant OrderLineModel::value(const QJsonObject &row, int role) const
{
    const QString upc = row.value(QLatin1String("upc")).toString();
    const int ordered = row.value(QLatin1String("orderQuantity")).toInt();
    const int allocated = row.value(QLatin1String("quantityAllocated")).toInt();
    switch (role) {
    case UpcRole:
        return upc;
    case BeerIdRole:
        return row.value(QLatin1String("beerId")).toString();
    case BeerNameRole:
    case Qt::DisplayRole:
        return m_beers ? m_beers->nameOfUpc(upc) : QString();
    case InCatalogRole:
        // docs/orders.md: beerId is omitted while the UPC is not in the catalog.
        return row.contains(QLatin1String("beerId"));
    case OrderQuantityRole:
        return ordered;
    case QuantityAllocatedRole:
        return allocated;
    case FullyAllocatedRole:
        return ordered > 0 && allocated >= ordered;
    default:
        return {};
    }
}

QString OrderLineModel::idOf(const QJsonObject &row) const
{
    const QString id = row.value(QLatin1String("id")).toString();
    return id.isEmpty() ? row.value(QLatin1String("upc")).toString() : id;
}

} // namespace Gatehouse::Console
