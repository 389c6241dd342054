#pragma once

#include "jsonlistmodel.h"

#include <QJsonArray>
#include <QPointer>

namespace Gatehouse::Console {

class BeerListModel;

// The lines of one order (beerOrderLines), with the beer's catalog name.
class OrderLineModel : public Gatehouse::Console::JsonListModel
{
    Q_OBJECT

public:
    enum Role {
        UpcRole = Qt::UserRole + 1,
        BeerIdRole,
        BeerNameRole, // "" when the UPC is not in the catalog
        InCatalogRole,
        OrderQuantityRole,
        QuantityAllocatedRole,
        FullyAllocatedRole,
    };
    Q_ENUM(Role)

    explicit OrderLineModel(QObject *parent = nullptr);

    QHash<int, QByteArray> roleNames() const override;
    void setBeers(BeerListModel *beers);
    void setLines(const QJsonArray &lines);

protected:
    QVariant value(const QJsonObject &row, int role) const override;
    QString idOf(const QJsonObject &row) const override;

private:
    QPointer<BeerListModel> m_beers;
};

} // namespace Gatehouse::Console
