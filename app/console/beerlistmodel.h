#pragma once

#include "livelistmodel.h"

namespace Gatehouse::Console {

// The beer catalog (GET /admin/v1/beers) by name; beer.stock updates a beer in place.
class BeerListModel : public Gatehouse::Console::LiveListModel
{
    Q_OBJECT

public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        NameRole,
        StyleRole,     // "PALE_ALE"
        StyleTextRole, // "Pale ale"
        UpcRole,
        PriceRole, // decimal string, "12.95"
        QuantityOnHandRole,
        DiscontinuedRole,
    };
    Q_ENUM(Role)

    explicit BeerListModel(AdminClient *client, QObject *parent = nullptr);

    QHash<int, QByteArray> roleNames() const override;
    // The catalog name of the beer with this UPC, "" if the catalog has none.
    Q_INVOKABLE QString nameOfUpc(const QString &upc) const;
    static QString styleText(const QString &style);

protected:
    QVariant value(const QJsonObject &row, int role) const override;
    ApiCall listCall() const override;
    bool listedBefore(const QJsonObject &a, const QJsonObject &b) const override;
    void applyEvent(const AdminEvent &event) override;
};

} // namespace Gatehouse::Console
